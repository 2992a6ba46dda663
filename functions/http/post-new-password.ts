import { workspacePage } from '../../shared/http/workspace.js';
import { newPasswordService } from '../../shared/adapters/wiring/session.js';
import { ENV } from '../../shared/config.js';
import { loadSecrets } from '../../shared/adapters/secrets.js';

// Its cookies are sealed with the cursor secret: read at cold start.
await loadSecrets(ENV.cursorSecret);

export const contract = {
  anonymous: true,
  page: true,
  form: { password: 'The new password', confirm: 'The same again', next: 'The workspace page to open after' },
  responses: {
    303: { description: 'Password set and signed in: the session cookies are set; go to `next`' },
    400: { description: 'The form again: the passwords differ or the policy refuses it' },
    401: { description: 'The challenge expired (3 minutes): sign in again with the temporary password' },
    403: { description: 'Posted from another site' },
  },
} as const;

export const handler = workspacePage(newPasswordService.submitNewPassword);
