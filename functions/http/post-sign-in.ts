import { workspacePage } from '../../shared/http/workspace.js';
import { signInService } from '../../shared/adapters/wiring/session.js';
import { ENV } from '../../shared/config.js';
import { loadSecrets } from '../../shared/adapters/secrets.js';

// Its cookies are sealed with the cursor secret: read at cold start.
await loadSecrets(ENV.cursorSecret);

export const contract = {
  anonymous: true,
  page: true,
  form: {
    email: 'The e-mail address the user signs in with',
    password: 'The password (sent to Cognito, kept nowhere)',
    next: 'The workspace page to open after',
  },
  responses: {
    303: { description: 'Signed in: the session cookies are set; go to `next`' },
    200: { description: 'An invited user: the form to choose a password' },
    400: { description: 'The form again: the e-mail or the password is missing' },
    401: { description: 'The form again: wrong e-mail or password' },
    403: { description: 'Posted from another site' },
    429: { description: 'Too many attempts: Retry-After says when the lock ends', headers: ['Retry-After'] },
  },
} as const;

export const handler = workspacePage(signInService.submitSignIn);
