import * as v from 'valibot';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { NOT_TENANT_ADMIN } from '../../shared/access/capabilities.js';
import { IssuedKeyView, KeyIdPath, KeyView, RotateKeyBody } from '../../shared/access/api-keys.js';
import { apiKeys } from '../../shared/adapters/wiring/access.js';

/**
 * Gives a key a successor (its value in this answer only); the old key keeps working for `grace_seconds`, then only the
 * new one does. Written to the audit log.
 */
export const contract = {
  admin: 'tenant' as const,
  path: KeyIdPath,
  body: RotateKeyBody,
  statuses: { forbidden: 403 },
  responses: {
    201: answer(
      'The new key (`key` shown this once), and the old one with the end of its grace as `expires_at`',
      v.object({ ...IssuedKeyView.entries, previous: KeyView }),
    ),
    400: problem('Invalid key id or body (errors names each wrong field)'),
    403: problem(NOT_TENANT_ADMIN),
    404: problem('This tenant has no key with that id'),
    409: problem('The key is revoked, expired or rotated already'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, path, body, actor }) => ({
  status: 201,
  body: await apiKeys.rotateKey(tenantId, { keyId: path.id, body, actor }),
}));
