import { casesSettingsOf } from '../../cases/rules.js';
import { DEFAULT_LOCALE, timeZoneOf } from '../../locale.js';
import { brandOf } from '../../tenants/brand.js';
import { casesPage } from '../../workspace/cases-page.js';
import { caseUsers } from '../case-ports.js';
import { employees } from '../employee-repository.js';
import { stores } from '../store-repository.js';
import { recordReads } from './access-log.js';
import { caseQueries } from './case-reads.js';
import { tenantSettings } from './tenant-settings.js';

/**
 * The workspace's case pages over the cases API's own service (the same rules, the same writes), the tenant's users
 * who may own a store's case, the names of stores and employees, and the access log.
 */
export const casePages = casesPage({
  async frame(tenantId) {
    const settings = await tenantSettings(tenantId);
    const { name, logoUrl } = brandOf(settings);
    const { rootCauses } = casesSettingsOf(settings);
    return {
      locale: settings.locale ?? DEFAULT_LOCALE,
      brand: { name, logoUrl },
      timeZone: timeZoneOf(settings),
      rootCauses,
      journeys: settings.journeys,
    };
  },
  list: caseQueries.list,
  get: caseQueries.get,
  revealContact: caseQueries.revealContact,
  candidates: caseUsers.managersOf,
  storeNames: async (tenantId, ids) =>
    new Map((ids.length ? await stores.getMany(tenantId, ids) : []).map((store) => [store.id, store.trade_name])),
  employeeNames: async (tenantId, ids) =>
    new Map((ids.length ? await employees.getMany(tenantId, ids) : []).map((employee) => [employee.id, employee.name])),
  recordReads,
});

export const { showCases, showCase, revealContact } = casePages;
