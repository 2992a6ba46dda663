import { configured, ENV, requireEnvs } from '../../config.js';
import { signInService } from '../../session/service.js';
import { signInPages } from '../../workspace/sign-in-page.js';
import { cognitoIdentityProvider } from '../cognito.js';
import { signInAttempts } from '../sign-in-attempts.js';
import { challengeSealer } from './sealers.js';

// The failed sign-ins are counted in the table.
requireEnvs(ENV.tableName);

/** The sign-in form's post: Cognito, the failures counted, an invited user's challenge sealed. */
export const { submitSignIn } = signInService(cognitoIdentityProvider(configured(ENV.userPoolClientId)), {
  challenges: challengeSealer,
  pages: signInPages,
  attempts: signInAttempts,
});
