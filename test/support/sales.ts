import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { ApiClient } from './api.js';

/**
 * Registers a sale through the legacy synchronous route (POST /public/transaction): store 1, employee 1, journey
 * loja, a customer of its own with an e-mail, unless `fields` says otherwise. Answers the transaction's id.
 */
export async function registerSale(client: ApiClient, key: string, fields: Record<string, unknown> = {}): Promise<number> {
  const unique = randomUUID().slice(0, 8);
  const res = await client({
    method: 'POST',
    path: '/public/transaction',
    key,
    body: {
      store_id: 1,
      employee_id: 1,
      journey: 'loja',
      customer_integration: `S-${unique}`,
      name: 'Bia Lima',
      email: `sale-${unique}@example.com`,
      ...fields,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as number;
}

/**
 * Posts a legacy sale (store 1, employee 1, journey loja, a customer of its own) with `body` over it, and answers the
 * response whatever its status: for tests of what the route refuses.
 */
export const postLegacySale = (client: ApiClient, key: string, body: Record<string, unknown>) =>
  client({
    method: 'POST',
    path: '/public/transaction',
    key,
    body: { store_id: 1, employee_id: 1, customer_integration: `R-${Math.random()}`, journey: 'loja', ...body },
  });
