import { randomUUID } from 'node:crypto';
import { createTenant, createUser, issueApiKey } from '../../shared/tenants/service.js';

export interface TestTenant {
  tenantId: number;
  key: string;
  chatbotKey: string;
  /** A user token with access to every store and group. */
  userToken: string;
  /** A user token limited to store 1 and group 1. */
  limitedToken: string;
}

/** A fresh tenant per test file: tests isolate by tenant, so files run in parallel against one table. */
export async function newTenant(name = `test-${randomUUID().slice(0, 8)}`): Promise<TestTenant> {
  const { id: tenantId } = await createTenant(name);
  const [publicKey, chatbotKey, full, limited] = await Promise.all([
    issueApiKey(tenantId, 'public'),
    issueApiKey(tenantId, 'chatbot'),
    createUser(tenantId, 'full', 'all'),
    createUser(tenantId, 'limited', { stores: [1], groups: [1] }),
  ]);
  return { tenantId, key: publicKey.key, chatbotKey: chatbotKey.key, userToken: full.token, limitedToken: limited.token };
}
