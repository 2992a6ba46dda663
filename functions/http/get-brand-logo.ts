import * as v from 'valibot';
import { binary, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { NotFoundError } from '../../shared/errors.js';
import { LOGO_CACHE_CONTROL, LOGO_FILE, LOGO_TYPES } from '../../shared/brand/logo.js';
import { getLogo } from '../../shared/adapters/wiring/brand.js';

export const contract = {
  anonymous: true as const,
  path: v.strictObject({ file: v.pipe(v.string(), v.regex(LOGO_FILE, 'must be a logo name: 64 hex digits and .png, .jpg or .webp')) }),
  responses: {
    200: binary(
      "The logo's bytes, cacheable for a year (its name is its content's hash)",
      LOGO_TYPES.map((type) => type.contentType),
    ),
    404: problem('No such logo'),
  },
};

export const handler = httpHandler(contract, async ({ path }) => {
  const logo = await getLogo(path.file);
  if (!logo) throw new NotFoundError('No such logo.');
  return { status: 200, bytes: logo.bytes, headers: { 'content-type': logo.contentType, 'cache-control': LOGO_CACHE_CONTROL } };
});
