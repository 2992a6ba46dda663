import { workspacePage } from '../../shared/http/workspace.js';
import { submitSignIn } from '../../shared/adapters/wiring/sign-in.js';

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
    429: { description: 'Too many attempts' },
  },
} as const;

export const handler = workspacePage(submitSignIn);
