import { configured, ENV } from '../../config.js';
import { newPasswordService } from '../../session/service.js';
import { signInPages } from '../../workspace/sign-in-page.js';
import { cognitoIdentityProvider } from '../cognito.js';
import { challengeSealer } from './sealers.js';

/** The new-password form's post: Cognito's challenge, from the cookie the sign-in sealed. */
export const { submitNewPassword } = newPasswordService(cognitoIdentityProvider(configured(ENV.userPoolClientId)), {
  challenges: challengeSealer,
  pages: signInPages,
});
