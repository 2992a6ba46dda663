import QRCode from 'qrcode';

/**
 * A QR code's picture, drawn with `qrcode` (npm; pure JavaScript, SVG and PNG without native code). Only the functions
 * that draw import this module, so only they bundle the library. Error correction M (15%): a poster's smudge.
 */
const OPTIONS = { errorCorrectionLevel: 'M', margin: 2 } as const;

export const qrSvg = (url: string): Promise<string> => QRCode.toString(url, { ...OPTIONS, type: 'svg' });
export const qrPng = (url: string): Promise<Buffer> => QRCode.toBuffer(url, { ...OPTIONS, type: 'png', width: 600 });
