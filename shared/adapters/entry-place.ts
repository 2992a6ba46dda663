import type { QrPorts } from '../in-store/ports.js';
import { employees } from './employee-repository.js';
import { stores } from './store-repository.js';

/** A QR code's or kiosk's store and employee as they are now: two reads at once (the employee's only when named). */
export const entryPlace: QrPorts['place'] = async (tenantId, storeId, employeeId) => {
  const [store, employee] = await Promise.all([
    stores.get(tenantId, storeId),
    employeeId === undefined ? undefined : employees.get(tenantId, employeeId),
  ]);
  return {
    store: store && { status: store.status },
    employee: employee && { status: employee.status, stores: employee.stores },
  };
};
