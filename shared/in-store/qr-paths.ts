/** The paths of a QR code's survey page, as data: the route table and the codes' URLs read them from here. */
export const QR_PREFIX = '/q/';
/** A QR code's survey page (GET the form, POST the answer); the token is the credential. */
export const QR_PAGE_PATH = `${QR_PREFIX}{token}`;
export const qrPagePath = (token: string) => `${QR_PREFIX}${token}`;
