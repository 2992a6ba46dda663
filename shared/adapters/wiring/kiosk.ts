import { ENV, requireEnvs, wire } from '../../config.js';
import type { KioskAdminPorts, KioskPorts, KioskReads } from '../../in-store/kiosk.js';
import { auditLog } from '../audit-log.js';
import { entryPlace } from '../entry-place.js';
import { kioskStore } from '../kiosk-repository.js';
import { qrStore } from '../qr-repository.js';
import { recordEntryAnswer } from './qr.js';
import { surveyPageReads } from './surveys.js';
import { tenantSettings } from './tenants.js';

/** The kiosk's answer (POST /k): its kiosk, the survey pages' reads, the device's bound and the walk-in answer path. */
export const kioskPage = /* @__PURE__ */ wire((): KioskPorts => {
  requireEnvs(ENV.tableName);
  return {
    kiosks: kioskStore,
    settings: tenantSettings,
    brand: surveyPageReads.brand,
    place: entryPlace,
    limits: qrStore,
    record: recordEntryAnswer,
  };
});

/** The kiosk's page (GET /k): its kiosk and the survey pages' reads; it records nothing, so no answer path. */
export const kioskPageReads = /* @__PURE__ */ wire((): KioskReads => {
  requireEnvs(ENV.tableName);
  return { kiosks: kioskStore, settings: tenantSettings, brand: surveyPageReads.brand, place: entryPlace };
});

/** The tablet's first visit (GET /k/{token}): its kiosk only. */
export const kioskEntry = /* @__PURE__ */ wire((): Pick<KioskPorts, 'kiosks'> => {
  requireEnvs(ENV.tableName);
  return { kiosks: kioskStore };
});

/** The admin's side: register (its store active, its employee one of the store's), list and revoke, audited. */
export const kioskAdmin = /* @__PURE__ */ wire((): KioskAdminPorts => {
  requireEnvs(ENV.tableName);
  return {
    settings: tenantSettings,
    place: entryPlace,
    kiosks: kioskStore,
    audit: auditLog,
  };
});
