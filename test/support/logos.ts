import { readFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';

/** The demo tenant's logo: a 160 x 48 PNG. */
export const DEMO_LOGO = readFileSync(new URL('../../infra/local/demo-logo.png', import.meta.url));

/** A PNG chunk: its length, type, data and CRC. */
export function pngChunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}

/** A valid PNG of its own: the demo logo with a text chunk holding `text` before its end (so, other bytes). */
export const distinctPng = (text: string): Buffer =>
  Buffer.concat([DEMO_LOGO.subarray(0, -12), pngChunk('tEXt', Buffer.from(`Comment\0${text}`, 'latin1')), DEMO_LOGO.subarray(-12)]);

/** A whole grey PNG of `width` x `height` pixels. */
export function png(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let row = 0; row < height; row++) rows[row * (width + 1)] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
