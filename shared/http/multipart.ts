import busboy from 'busboy';

/** A file sent in a multipart form: its bytes (at most the limit), and whether it was longer than that. */
export interface SentFile {
  bytes: Buffer;
  tooLarge: boolean;
}

/**
 * A multipart/form-data body (a form with a file input): its fields, and its files by field name, each read up to
 * `maxFileBytes` (the rest is dropped and the file marked too large, so the page can say so). A body that is not
 * multipart, or is malformed, reads as no fields and no files: the page then finds its fields missing.
 */
export async function readMultipart(
  body: Buffer,
  contentType: string | undefined,
  { maxFileBytes }: { maxFileBytes: number },
): Promise<{ fields: URLSearchParams; files: Map<string, SentFile> }> {
  const fields = new URLSearchParams();
  const files = new Map<string, SentFile>();
  if (!contentType?.toLowerCase().startsWith('multipart/form-data')) return { fields, files };
  return new Promise((resolve) => {
    const empty = () => resolve({ fields: new URLSearchParams(), files: new Map() });
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { 'content-type': contentType }, limits: { fileSize: maxFileBytes, files: 4, fields: 20 } });
    } catch {
      return empty();
    }
    parser.on('field', (name, value) => fields.append(name, value));
    parser.on('file', (name, stream) => {
      const chunks: Buffer[] = [];
      let tooLarge = false;
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => (tooLarge = true));
      stream.on('end', () => files.set(name, { bytes: Buffer.concat(chunks), tooLarge }));
    });
    parser.on('close', () => resolve({ fields, files }));
    parser.on('error', empty);
    parser.end(body);
  });
}
