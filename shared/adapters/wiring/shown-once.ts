import { configured, ENV, wire } from '../../config.js';
import { sealer } from '../../sealed.js';
import { spendShownOnce } from '../shown-once.js';

/**
 * A secret an admin page shows once (a new API key, a user's token, a new webhook endpoint's signing secret), sealed
 * with the deployment's cursor secret under a key of its own purpose (its functions read the secret at cold start),
 * and spent once shown.
 */
export const shownOnce = /* @__PURE__ */ wire(() => ({
  sealer: sealer(configured(ENV.cursorSecret), 'shown-once/v1'),
  spend: spendShownOnce,
}));
