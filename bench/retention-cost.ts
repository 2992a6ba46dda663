import { randomUUID } from 'node:crypto';
import { putSettings } from '../shared/adapters/tenant-repository.js';
import { personalExpiry } from '../shared/adapters/personal-expiry.js';
import { db } from '../shared/adapters/dynamodb.js';
import { sweepExpired, type ExpiryStore } from '../shared/privacy/retention.js';
import { inProcess } from '../test/support/api.js';
import { DEMO_SETTINGS, newTenant } from '../test/support/tenant.js';
import { PRICES } from './cost.js';
import { meter } from './metering.js';

const DAY_MS = 86_400_000;

/**
 * What a tenant's retention costs: the write units it adds to registering a sale (its expiry index entry), against
 * the same sale in a tenant without one, and what the sweep spends per transaction whose copies it removes, beside
 * its floor (one update each; its index read and item read shared by a page of up to 100).
 */
export async function retentionCost({ sales = Number(process.env.BENCH_RETENTION_SALES ?? 300) } = {}): Promise<string> {
  const client = inProcess('public', 300);
  const [kept, plain] = await Promise.all([newTenant(), newTenant()]);
  await putSettings(kept.tenantId, { ...DEMO_SETTINGS, privacy: { retentionDays: 30 } });
  const sale = (key: string) => {
    const unique = randomUUID();
    const body = {
      store_id: 1,
      employee_id: 1,
      journey: 'loja',
      customer_integration: `R-${unique}`,
      name: 'Bia Lima',
      email: `bench-${unique}@example.com`,
    };
    return client({ method: 'POST', path: '/public/transaction', key, body });
  };

  const metered = meter(db().client);
  const perSale: Record<string, { roundTrips: number; write: number }> = {};
  for (const [label, key] of [
    ['without retention', plain.key],
    ['with retention', kept.key],
  ] as const) {
    await sale(key);
    metered.reset();
    const res = await metered.run(() => sale(key));
    if (res.status !== 201) throw new Error(`A bench sale answered ${res.status}: ${res.text}`);
    perSale[label] = metered.totals();
  }

  for (let i = 1; i < sales; i++) await sale(kept.key);
  // The sweep with a checkpoint of its own: the table's belongs to the local stack's scheduled sweep.
  let checkpoint: string | undefined;
  const store: ExpiryStore = {
    ...personalExpiry,
    checkpoint: async () => checkpoint,
    saveCheckpoint: async (day) => void (checkpoint = day),
  };
  metered.reset();
  const outcome = await metered.run(() => sweepExpired(store, new Date(Date.now() + 31 * DAY_MS), () => 60_000));
  const swept = metered.totals();
  metered.stop();
  const per = (n: number) => (outcome.stripped ? n / outcome.stripped : NaN);
  const dollars = (read: number, write: number) => `$${(read * PRICES.readUnit + write * PRICES.writeUnit).toFixed(2)}`;
  const added = perSale['with retention']!.write - perSale['without retention']!.write;
  return [
    '### What a retention costs (`privacy.retentionDays`)',
    '',
    `A sale registered (POST /public/transaction, a new customer) in a tenant without retention, then with one; then ${outcome.stripped} transactions whose copies expired, removed by one sweep (${outcome.days} days read, 16 shards a day).`,
    '',
    '| what | round trips | read units | write units | $ per million | floor |',
    '|---|---:|---:|---:|---:|---|',
    `| a sale, without retention | ${perSale['without retention']!.roundTrips} | | ${perSale['without retention']!.write} | ${dollars(0, perSale['without retention']!.write)} | |`,
    `| a sale, with retention | ${perSale['with retention']!.roundTrips} | | ${perSale['with retention']!.write} | ${dollars(0, perSale['with retention']!.write)} | +1 write unit: the keys-only expiry entry (measured +${added}) |`,
    `| the sweep, per transaction stripped | ${per(swept.roundTrips).toFixed(2)} | ${per(swept.read).toFixed(2)} | ${per(swept.write).toFixed(2)} | ${dollars(per(swept.read), per(swept.write))} | 2 write units: the item's update and its index entry's removal; 1 round trip, plus reads shared by a page (up to 100; a day's 16 shards are read even when empty) |`,
  ].join('\n');
}
