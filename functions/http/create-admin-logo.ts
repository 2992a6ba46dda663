import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { NOT_TENANT_ADMIN } from '../../shared/access/capabilities.js';
import { LOGO_CONTENT_TYPES, LogoObject } from '../../shared/brand/logo.js';
import { logoPath } from '../../shared/brand/brand.js';
import { tenantLogos } from '../../shared/adapters/wiring/brand.js';

/**
 * Stores a logo: the image's bytes are the body, judged by their content (PNG, JPEG or WebP of at most 200 KB; SVG
 * refused). Answers the stored object, which `brand.logo` of PUT /public/admin/config may then name, and its public
 * URL in `Location`. The same bytes again answer the same object.
 */
export const contract = {
  admin: 'tenant' as const,
  bytes: LOGO_CONTENT_TYPES,
  statuses: { forbidden: 403 },
  responses: {
    201: answer('The stored logo: give it as brand.logo in PUT /public/admin/config', LogoObject, ['Location']),
    400: problem('Not a PNG, JPEG or WebP image, an SVG, empty, or over 200 KB (the reason in detail and errors)'),
    403: problem(NOT_TENANT_ADMIN),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, bytes, actor }) => {
  const logo = await tenantLogos.uploadLogo(tenantId, { bytes, actor });
  return { status: 201, body: logo, headers: { location: logoPath(logo.file) } };
});
