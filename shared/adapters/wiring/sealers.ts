import { ENV } from '../../config.js';
import { sealer } from '../../sealed.js';
import { configuredSecret } from '../secrets.js';

// What the workspace's cookies carry is sealed with the deployment's cursor secret (read at cold start), each use
// under a key of its own purpose, so that one cookie is never accepted as another.
const secret = await configuredSecret(ENV.cursorSecret);

/** An invited user's new-password challenge, between the sign-in form and the new-password form. */
export const challengeSealer = sealer(secret, 'sign-in-challenge/v1');
/** A secret an admin page shows once (a new API key, a user's token). */
export const shownOnceSealer = sealer(secret, 'shown-once/v1');
