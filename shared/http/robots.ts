import { APP_PATH } from '../session/paths.js';
import { SURVEY_PREFIX } from '../surveys/paths.js';

/** Where crawlers ask what they may read. */
export const ROBOTS_PATH = '/robots.txt';

/**
 * What crawlers may read: not the workspace (behind sign-in: nothing to index) nor survey links (each one a customer's,
 * its token the credential); the reference (/docs) they may.
 */
export const ROBOTS_TXT = ['User-agent: *', `Disallow: ${APP_PATH}/`, `Disallow: ${SURVEY_PREFIX}`, ''].join('\n');
