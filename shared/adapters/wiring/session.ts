import { configured, ENV } from '../../config.js';
import { sessionService } from '../../session/service.js';
import { cognitoIdentityProvider } from '../cognito.js';

/** The session pages: Cognito's public sign-in operations with the web client's id. */
export const { submitSignIn, submitNewPassword, signOut } = sessionService(cognitoIdentityProvider(configured(ENV.userPoolClientId)));
