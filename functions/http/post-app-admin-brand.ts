import { readMultipart } from '../../shared/http/multipart.js';
import { signedInPage } from '../../shared/http/workspace.js';
import { brandForm } from '../../shared/adapters/wiring/brand.js';
import { MAX_LOGO_BYTES } from '../../shared/brand/logo.js';
import { MAX_BRAND_FORM_BYTES } from '../../shared/workspace/admin-brand-form.js';

export const contract = {
  page: true,
  form: {
    etag: 'the configuration version the form was read at',
    name: 'the display name (required, at most 100 characters)',
    colour: 'the main colour, #rrggbb or #rgb, with WCAG AA contrast on the page; empty: the default',
    senderName: 'the e-mails’ sender name; empty: the display name',
    logo: 'a new logo (multipart file: PNG, JPEG or WebP, at most 200 KB); none: the current one stays',
    removeLogo: '`yes`: no logo any more',
  },
  responses: {
    303: { description: 'Saved: back to the brand page, saying so' },
    400: { description: 'The page again, each wrong field named in the tenant’s language (the colour’s contrast); nothing saved' },
    403: { description: 'Not a tenant admin, or posted from another site' },
    409: { description: 'The configuration changed since the form was read: nothing saved, what was typed kept' },
    413: { description: 'A body larger than a logo at its limit and the form' },
  },
} as const;

export const handler = signedInPage(
  async ({ base, query, form, body, contentType, session, user }) => {
    const sent = await readMultipart(body, contentType, { maxFileBytes: MAX_LOGO_BYTES });
    return brandForm({ tenantId: session.tenantId, user: await user(), base, query, form, sent });
  },
  { maxBytes: MAX_BRAND_FORM_BYTES },
);
