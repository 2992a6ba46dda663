import { configuredSecret } from '../../shared/adapters/secrets.js';
import { qrAdmin } from '../../shared/adapters/wiring/in-store.js';
import { NOT_TENANT_ADMIN } from '../../shared/access/capabilities.js';
import { configured, ENV } from '../../shared/config.js';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { preferredType } from '../../shared/http/negotiate.js';
import { qrPng, qrSvg } from '../../shared/in-store/qr-draw.js';
import { QrLinkBody, QrQuery } from '../../shared/in-store/qr-schema.js';
import { qrUrl } from '../../shared/in-store/qr-admin.js';

const secret = await configuredSecret(ENV.surveySecret);
const baseUrl = configured(ENV.surveyBaseUrl);
const MEDIA = ['image/svg+xml', 'image/png', 'application/json'] as const;

/** A store's QR code: SVG by default, PNG or its URL as JSON by `Accept`. */
export const contract = {
  admin: 'tenant' as const,
  query: QrQuery,
  statuses: { forbidden: 403, validation: 422 },
  responses: {
    200: {
      ...answer('The code as `image/svg+xml` (the default), `image/png`, or its URL (`Accept: application/json`)', QrLinkBody),
      alternatives: ['image/svg+xml', 'image/png'],
    },
    403: problem(NOT_TENANT_ADMIN),
    404: problem('No such store'),
    422: problem('Invalid parameters (an unknown journey, an inactive store, an employee who does not work at the store)'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, query, accept }) => {
  const url = await qrUrl(tenantId, { target: query, ports: qrAdmin, secret: secret(), baseUrl: baseUrl() });
  const type = preferredType(accept, MEDIA);
  if (type === 'application/json') return { status: 200, body: { url } };
  const headers = { 'content-type': type, 'cache-control': 'no-store' };
  return type === 'image/png' ? { status: 200, bytes: await qrPng(url), headers } : { status: 200, text: await qrSvg(url), headers };
});
