import { configured, ENV } from '../../config.js';
import { sessionService } from '../../session/service.js';
import { cognitoIdentityProvider } from '../cognito.js';

/** Signing out: Cognito's revocation with the web client's id. */
export const { signOut } = sessionService(cognitoIdentityProvider(configured(ENV.userPoolClientId)));
