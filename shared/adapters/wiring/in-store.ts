import { configured, ENV, requireEnvs, wire } from '../../config.js';
import { qrSvg } from '../../in-store/qr-draw.js';
import { qrUrl } from '../../in-store/qr-admin.js';
import { kioskAnswersToday, listKiosks, registerKiosk, revokeKiosk } from '../../in-store/kiosk.js';
import { adminInStorePage } from '../../workspace/admin-in-store-page.js';
import { qrStore } from '../qr-repository.js';
import { storeChoices, storeTradeNames } from '../store-repository.js';
import { kioskAdmin } from './kiosk.js';
import { qrAdmin } from './qr.js';
import { shownOnce } from './shown-once.js';
import { tenantSettings } from './tenants.js';

/**
 * The tenant admins' in-store page (/app/admin/qr) over the services of GET /public/admin/qr (the code's URL, signed
 * with the survey secret, and its picture) and /public/admin/kiosks (register, list, revoke, audited), each kiosk's
 * answers today (its daily cap's counter); a new kiosk's
 * address shown once, sealed. `secret`: the survey secret's getter, read at the handler's cold start.
 */
export const inStorePage = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  const baseUrl = configured(ENV.surveyBaseUrl);
  return (secret: () => string) =>
    adminInStorePage({
      settings: tenantSettings,
      storeChoices: (tenantId, most) => storeChoices(tenantId, 'all', most),
      storeNames: storeTradeNames,
      qrUrl: (tenantId, target) => qrUrl(tenantId, target, qrAdmin, secret(), baseUrl()),
      qrSvg,
      kiosks: {
        list: (tenantId) => listKiosks(tenantId, kioskAdmin),
        register: (tenantId, body, actor) => registerKiosk(tenantId, body, actor, kioskAdmin, baseUrl()),
        revoke: (tenantId, id, actor) => revokeKiosk(tenantId, id, actor, kioskAdmin),
        today: (tenantId, ids, zone) => kioskAnswersToday(tenantId, ids, zone, { limits: qrStore }),
      },
      shownOnce,
    });
});
