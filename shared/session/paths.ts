/**
 * The workspace's paths, as data: the route table, the pages and the session cookies read them here. Every page of the
 * workspace lives under `/app`; the session's own paths (refresh, sign-out) under `/app/session`, the only path its
 * refresh cookie is sent to.
 */
export const APP_PATH = '/app';
export const SIGN_IN_PATH = `${APP_PATH}/sign-in`;
export const NEW_PASSWORD_PATH = `${APP_PATH}/sign-in/new-password`;
export const SESSION_PATH = `${APP_PATH}/session`;
export const REFRESH_PATH = `${SESSION_PATH}/refresh`;
export const SIGN_OUT_PATH = `${SESSION_PATH}/sign-out`;
export const APP_RESULTS_PATH = `${APP_PATH}/results`;
/** The digest's figures (issue 48), which the digest e-mail links to. */
export const APP_DIGEST_PATH = `${APP_PATH}/digest`;
/** The answers inbox, and the same answers as CSV. */
export const APP_ANSWERS_PATH = `${APP_PATH}/answers`;
export const APP_ANSWERS_CSV_PATH = `${APP_PATH}/answers.csv`;
/** The workspace export of the answers (a job), and one export's download. */
export const APP_ANSWERS_EXPORTS_PATH = `${APP_ANSWERS_PATH}/exports`;
export const APP_ANSWERS_EXPORT_PATH = `${APP_ANSWERS_EXPORTS_PATH}/{id}`;
export const appAnswersExportPath = (id: string) => APP_ANSWERS_EXPORT_PATH.replace('{id}', encodeURIComponent(id));
/** The cases list; one case's page and its update form; the reveal of its customer's contact (a form post). */
export const APP_CASES_PATH = `${APP_PATH}/cases`;
export const APP_CASE_PATH = `${APP_CASES_PATH}/{id}`;
export const APP_CASE_CONTACT_PATH = `${APP_CASE_PATH}/contact`;
/** One case's page, under the stage's base: the alert e-mail links here (after the public base URL). */
export const appCasePath = (id: number | string) => APP_CASE_PATH.replace('{id}', encodeURIComponent(String(id)));
/** Where a signed-in manager lands. */
export const APP_HOME = APP_RESULTS_PATH;
/** The tenant admins' pages (issue 34): `/app/admin` alone opens the first one the user may open. */
export const APP_ADMIN_PATH = `${APP_PATH}/admin`;
/** The tenant's name, language and time zone. */
export const APP_ADMIN_GENERAL_PATH = `${APP_ADMIN_PATH}/general`;
export const APP_ADMIN_JOURNEYS_PATH = `${APP_ADMIN_PATH}/journeys`;
export const APP_ADMIN_REGIONS_PATH = `${APP_ADMIN_PATH}/regions`;
export const APP_ADMIN_THEMES_PATH = `${APP_ADMIN_PATH}/themes`;
export const APP_ADMIN_WEBHOOKS_PATH = `${APP_ADMIN_PATH}/webhooks`;
export const APP_ADMIN_KEYS_PATH = `${APP_ADMIN_PATH}/keys`;
export const APP_ADMIN_USERS_PATH = `${APP_ADMIN_PATH}/users`;
export const APP_ADMIN_BRAND_PATH = `${APP_ADMIN_PATH}/brand`;
/** In store (issue 50): a store's QR code poster to print, and the tablets (kiosks) registered at its exit. */
export const APP_ADMIN_QR_PATH = `${APP_ADMIN_PATH}/qr`;
