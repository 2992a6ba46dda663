/** The kiosk's paths, as data: the route table and the pages read them here. */
export const KIOSK_PATH = '/k';
/** Opened once on the tablet: keeps the device token in a cookie, then goes to KIOSK_PATH without it. */
export const KIOSK_ENTRY_PATH = `${KIOSK_PATH}/{token}`;
/** Relative to KIOSK_ENTRY_PATH and to KIOSK_PATH alike (so under any stage path): the kiosk's page. */
export const KIOSK_PAGE_LINK = '../k';
/** Relative to KIOSK_PATH: the form posts here, and the thanks returns here. */
export const KIOSK_SELF_LINK = 'k';
/** The admin API's kiosks. */
export const ADMIN_KIOSKS_PATH = '/public/admin/kiosks';
/** The tablet's cookie that holds its device token: the credential of the kiosk's page. */
export const KIOSK_COOKIE = 'kiosk';
