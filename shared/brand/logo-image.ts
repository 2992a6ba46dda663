import { crc32 } from 'node:zlib';

/**
 * A logo's image header, decoded in full before it is stored: the bytes are served as an image for a year, so a file
 * that only starts like one (a PNG signature and then `<script>`) is refused. PNG is read chunk by chunk to its
 * IEND with every CRC; JPEG from its SOI through its frame header (SOF) to the EOI it ends with; WebP by its RIFF
 * size and its VP8, VP8L or VP8X header. Nothing may follow the image's end.
 */

/** The widest and tallest logo taken: it shows at most 480 x 160 device pixels; this leaves room for a source file. */
export const MAX_LOGO_SIDE = 2048;

export type LogoFormat = 'png' | 'jpg' | 'webp';

/** What is wrong with the image's structure or size, in words for the tenant; undefined when it decodes. */
export function imageProblem(bytes: Uint8Array, format: LogoFormat): string | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    const size = format === 'png' ? pngSize(bytes, view) : format === 'jpg' ? jpegSize(bytes, view) : webpSize(bytes, view);
    if (typeof size === 'string') return size;
    const [width, height] = size;
    if (width < 1 || height < 1 || width > MAX_LOGO_SIDE || height > MAX_LOGO_SIDE)
      return `is ${width} x ${height} pixels; at most ${MAX_LOGO_SIDE} x ${MAX_LOGO_SIDE} is accepted`;
    return undefined;
  } catch (error) {
    if (error instanceof RangeError) return `is a ${format.toUpperCase()} file cut short`;
    throw error;
  }
}

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

function pngSize(bytes: Uint8Array, view: DataView): [number, number] | string {
  let size: [number, number] | undefined;
  let data = false;
  for (let at = 8; ;) {
    const length = view.getUint32(at);
    const type = ascii(bytes, at + 4, at + 8);
    const end = at + 12 + length;
    if (!/^[A-Za-z]{4}$/.test(type) || end > bytes.byteLength) return 'is not a whole PNG image (a chunk runs past its end)';
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== view.getUint32(at + 8 + length))
      return `is not a valid PNG image (the ${type} chunk fails its CRC)`;
    if (!size) {
      if (type !== 'IHDR' || length !== 13) return 'is not a valid PNG image (it does not begin with its IHDR header)';
      size = [view.getUint32(at + 8), view.getUint32(at + 12)];
      const [depth, colour, compression, filter, interlace] = bytes.subarray(at + 16, at + 21);
      const depths: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
      if (!depths[colour!]?.includes(depth!) || compression !== 0 || filter !== 0 || interlace! > 1)
        return 'is not a valid PNG image (its IHDR header is invalid)';
    } else if (type === 'IDAT') data = true;
    else if (type === 'IEND') {
      if (!data) return 'is not a valid PNG image (it holds no image data)';
      return end === bytes.byteLength ? size : 'holds data after the end of its PNG image';
    }
    at = end;
  }
}

/** SOF markers: C0 to CF but DHT (C4), JPG (C8) and DAC (CC). */
const isFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);

function jpegSize(bytes: Uint8Array, view: DataView): [number, number] | string {
  let size: [number, number] | undefined;
  for (let at = 2; ;) {
    if (bytes[at] !== 0xff) return 'is not a valid JPEG image (a segment does not start with a marker)';
    while (bytes[at + 1] === 0xff) at++;
    const marker = view.getUint8(at + 1);
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xd8) return 'is not a valid JPEG image (it ends before its image data)';
    const length = view.getUint16(at + 2);
    if (length < 2 || at + 2 + length > bytes.byteLength) return 'is not a whole JPEG image (a segment runs past its end)';
    if (isFrame(marker)) {
      if (length < 8) return 'is not a valid JPEG image (its frame header is invalid)';
      size = [view.getUint16(at + 7), view.getUint16(at + 5)];
    }
    if (marker === 0xda) {
      // The scan's entropy-coded data follows, to the EOI the file ends with.
      if (!size) return 'is not a valid JPEG image (it has no frame header)';
      const n = bytes.byteLength;
      return bytes[n - 2] === 0xff && bytes[n - 1] === 0xd9 ? size : 'holds data after the end of its JPEG image';
    }
    at += 2 + length;
  }
}

function webpSize(bytes: Uint8Array, view: DataView): [number, number] | string {
  if (view.getUint32(4, true) + 8 !== bytes.byteLength) return 'is not a whole WebP image (its RIFF size is not its length)';
  const chunk = ascii(bytes, 12, 16);
  if (view.getUint32(16, true) + 20 > bytes.byteLength) return 'is not a whole WebP image (a chunk runs past its end)';
  if (chunk === 'VP8 ') {
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return 'is not a valid WebP image (its VP8 header is invalid)';
    return [view.getUint16(26, true) & 0x3fff, view.getUint16(28, true) & 0x3fff];
  }
  if (chunk === 'VP8L') {
    if (bytes[20] !== 0x2f) return 'is not a valid WebP image (its VP8L header is invalid)';
    const bits = view.getUint32(21, true);
    return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
  }
  if (chunk === 'VP8X') return [(view.getUint32(24, true) & 0xffffff) + 1, (view.getUint32(27, true) & 0xffffff) + 1];
  return 'is not a valid WebP image (it has no VP8, VP8L or VP8X header)';
}
