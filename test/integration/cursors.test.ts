import { beforeAll, describe, expect, it } from 'vitest';
import { inProcess, errorPaths } from '../support/api.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/** The cursors of paged lists: a list takes back only the cursors it issued. */
const api = inProcess('public');
let tenant: TestTenant;

beforeAll(async () => {
  tenant = await newTenant();
});

describe('cursors', () => {
  const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

  it('answers 422 for any cursor the list did not issue', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const month = today.slice(0, 7);
    const crafted: [string, Record<string, string | number>][] = [
      ['/public/customer', { token: tenant.userToken, cursor: cursor({ id: 2 ** 53 }) }],
      ['/public/customer', { token: tenant.userToken, cursor: cursor({ id: 2 ** 31 }) }],
      ['/public/store', { status: 'active', cursor: cursor({ pk: '', sk: '', gsi2pk: '', gsi2sk: '' }) }],
      [
        '/public/rating/formbuilder',
        {
          token: tenant.userToken,
          start_date: today,
          end_date: today,
          cursor: cursor({
            month,
            key: { pk: 'x', sk: 'TX', gsi2pk: `T#${tenant.tenantId}#EVAL#${month}`, gsi2sk: `${today}#1`, extra: 1 },
          }),
        },
      ],
      [
        '/public/rating/formbuilder',
        {
          token: tenant.userToken,
          start_date: today,
          end_date: today,
          cursor: cursor({ month, key: { pk: 'x', sk: 'TX', gsi2pk: `T#${tenant.tenantId}#EVAL#${month}`, gsi2sk: 5 } }),
        },
      ],
      [
        '/public/rating/formbuilder',
        {
          token: tenant.userToken,
          start_date: today,
          end_date: today,
          cursor: cursor({ month, key: { pk: 'x', sk: 'TX', gsi2pk: `T#${tenant.tenantId}#EVAL#${month}`, gsi2sk: '1999-01-01' } }),
        },
      ],
    ];
    for (const [path, query] of crafted) {
      const res = await api({ path, key: tenant.key, query });
      expect(res.status, `${path} ${query.cursor}`).toBe(422);
      expect(errorPaths(res)).toEqual(['cursor']);
    }
  });
});
