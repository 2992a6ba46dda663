import { randomBytes } from 'node:crypto';
import type { AuditActor, AuditLog } from '../audit/log.js';
import { NotFoundError, ValidationError } from '../errors.js';

import { qrPagePath } from './qr-paths.js';
import type { QrPorts, QrStore } from './ports.js';
import { signQrCode } from './qr-token.js';

import { placeProblems } from './entry.js';

/** The admin's side of the QR codes: a code's URL, and rotating every code printed so far. */

/** The generation a tenant's codes are signed under now. */
export const generationOf = (settings: { qrGeneration?: number | undefined }) => settings.qrGeneration ?? 1;

export interface QrTarget {
  store: number;
  journey: string;
  employee?: number | undefined;
}

/**
 * The URL a store's QR code opens (GET /public/admin/qr): its store must exist (404) and be active, its journey be the
 * tenant's, and its employee, if any, work at the store (422 naming what is wrong).
 */
export async function qrUrl(
  tenantId: number,
  { target, ports, secret, baseUrl }: { target: QrTarget; ports: Pick<QrPorts, 'settings' | 'place'>; secret: string; baseUrl: string },
): Promise<string> {
  const [settings, place] = await Promise.all([ports.settings(tenantId), ports.place(tenantId, target.store, target.employee)]);
  const journey = settings.journeys.find((j) => j.slug === target.journey);
  if (!journey) throw new ValidationError('Unknown journey.', [{ path: 'journey', message: 'is not a journey of this tenant' }]);
  if (!place.store) throw new NotFoundError(`Store ${target.store} not found.`);
  const problems = placeProblems(target, place);
  if (problems.length) throw new ValidationError('The store or the employee takes no answers.', problems);
  const token = signQrCode(
    { tenantId, storeId: target.store, journeyId: journey.id, employeeId: target.employee, generation: generationOf(settings) },
    secret,
  );
  return `${baseUrl.replace(/\/+$/, '')}${qrPagePath(token)}`;
}

/** POST /public/admin/qr/rotate: every code printed so far answers 410; audited as the generation it moved from and to. */
export async function rotateQrCodes(
  tenantId: number,
  {
    actor,
    ports,
    now = new Date(),
  }: { actor: AuditActor; ports: { store: Pick<QrStore, 'rotateGeneration'>; audit: AuditLog }; now?: Date },
): Promise<number> {
  const generation = await ports.store.rotateGeneration(tenantId);
  await ports.audit.record(tenantId, {
    id: randomBytes(6).toString('hex'),
    at: now.toISOString(),
    actor,
    action: 'qr.rotate',
    changes: [{ path: 'qr.generation', old: generation - 1, new: generation }],
  });
  return generation;
}
