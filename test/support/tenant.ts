import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DEMO_TENANTS_FILE } from '../../infra/local/demo.js';
import { putSettings } from '../../shared/adapters/tenant-repository.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { parseTenantFile } from '../../shared/tenants/tenant-file.js';

/** The demo tenant's journeys, classes and groups, which every test tenant gets too. */
export const DEMO_SETTINGS = parseTenantFile(readFileSync(DEMO_TENANTS_FILE, 'utf8'), {}).tenants[0]!;

export interface TestTenant {
  tenantId: number;
  key: string;
  chatbotKey: string;
  /** An API key with scope admin. */
  adminKey: string;
  /** A user token with access to every store and group. */
  userToken: string;
  /** A user token limited to store 1 and group 1. */
  limitedToken: string;
}

/**
 * A fresh tenant per test file, with the demo configuration (journeys 1 loja and 2 ecommerce, classes 1-4, groups
 * 1-2): tests isolate by tenant, so files run in parallel against one table.
 */
export async function newTenant(name = `test-${randomUUID().slice(0, 8)}`): Promise<TestTenant> {
  const { id: tenantId } = await tenantService.createTenant(name, DEMO_SETTINGS.firstStore!);
  const [publicKey, chatbotKey, adminKey, full, limited] = await Promise.all([
    putSettings(tenantId, DEMO_SETTINGS).then(() => tenantService.issueApiKey(tenantId, { scope: 'public' })),
    tenantService.issueApiKey(tenantId, { scope: 'chatbot' }),
    tenantService.issueApiKey(tenantId, { scope: 'admin' }),
    tenantService.createUser(tenantId, { name: 'full', scope: 'all' }),
    tenantService.createUser(tenantId, { name: 'limited', scope: { stores: [1], groups: [1] } }),
  ]);
  return {
    tenantId,
    key: publicKey.key,
    chatbotKey: chatbotKey.key,
    adminKey: adminKey.key,
    userToken: full.token,
    limitedToken: limited.token,
  };
}
