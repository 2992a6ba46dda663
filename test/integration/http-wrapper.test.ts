import { beforeAll, describe, expect, it, vi } from 'vitest';
import * as v from 'valibot';
import { httpHandler } from '../../shared/http/handler.js';
import { httpEvent, lambdaContext } from '../../infra/local/events.js';
import { logger } from '../../shared/logger.js';
import { ConcurrentEditError, NotFoundError, UnavailableError } from '../../shared/errors.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

// As the authorizer answers for this very request (checkedFor): an answer cached for another is checked again.
const TENANT_1 = { authenticated: true, tenantId: 1, scope: 'public', checkedFor: 'req-123' };
const event = (authorizer: unknown) => httpEvent({ method: 'GET', routePath: '/x', rawPath: '/x', requestId: 'req-123' }, authorizer);

describe('the HTTP wrapper', () => {
  it('answers an unexpected failure with a generic 500 that leaks nothing, and logs it with the request id', async () => {
    const errors = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const handler = httpHandler({}, async () => {
      throw new Error('ConditionalCheckFailed on table secret-table with key T#1#STORE#9');
    });

    const res = await handler(event(TENANT_1), lambdaContext('test'));

    expect(res.statusCode).toBe(500);
    expect(res.headers?.['content-type']).toBe('application/problem+json');
    expect(res.headers?.['x-request-id']).toBe('req-123');
    expect(res.body).not.toMatch(/secret-table|T#1|ConditionalCheck/);
    expect(JSON.parse(res.body!)).toMatchObject({ type: '/problems/internal', status: 500 });
    expect(errors).toHaveBeenCalledOnce();
    errors.mockRestore();
  });

  it('refuses a request without an authenticated tenant context', async () => {
    const handler = httpHandler({}, async () => ({ status: 200, body: 'should not run' }));
    for (const context of [undefined, { authenticated: false }, { authenticated: true, tenantId: 'x' }]) {
      const res = await handler(event(context), lambdaContext('test'));
      expect(res.statusCode).toBe(401);
    }
  });

  it('hands typed, validated input to the operation', async () => {
    const handler = httpHandler({ query: v.strictObject({ n: v.pipe(v.string(), v.transform(Number)) }) }, async ({ query, tenantId }) => ({
      status: 200,
      body: { doubled: query.n * 2, tenantId },
    }));
    const res = await handler({ ...event(TENANT_1), queryStringParameters: { n: '21' } }, lambdaContext('test'));
    expect(JSON.parse(res.body!)).toEqual({ doubled: 42, tenantId: 1 });
  });

  it('answers a concurrent edit with a 409 and an unavailable dependency with a 503 and Retry-After, each naming its problem', async () => {
    const answer = async (error: Error) => {
      const res = await httpHandler({}, async () => {
        throw error;
      })(event(TENANT_1), lambdaContext('test'));
      return { status: res.statusCode, retryAfter: res.headers?.['retry-after'], body: JSON.parse(res.body!) as Record<string, unknown> };
    };
    expect(await answer(new ConcurrentEditError('Employee 3 is being edited by another request; try again.'))).toEqual({
      status: 409,
      retryAfter: undefined,
      body: {
        type: '/problems/concurrent-edit',
        title: 'Edited concurrently',
        status: 409,
        detail: 'Employee 3 is being edited by another request; try again.',
      },
    });
    expect(await answer(new UnavailableError())).toMatchObject({
      status: 503,
      retryAfter: '5',
      body: { type: '/problems/unavailable', status: 503, detail: expect.stringContaining('Retry-After') },
    });
  });

  describe('on a route that declares the user it needs', () => {
    let tenant: TestTenant;
    beforeAll(async () => {
      tenant = await newTenant();
    });
    const asUser = (token: string | undefined) =>
      httpEvent(
        {
          method: 'GET',
          routePath: '/x',
          rawPath: '/x',
          requestId: 'req-user',
          ...(token ? { headers: { 'x-service-user-token': token } } : {}),
        },
        { authenticated: true, tenantId: tenant.tenantId, scope: 'public', checkedFor: 'req-user' },
      );
    const outcome = (res: { statusCode?: number; body?: string }) => [res.statusCode, JSON.parse(res.body!).type] as const;

    it("hands the operation the token's user, and answers 401 for a refused token even when the operation never asked for it", async () => {
      const handler = httpHandler({ user: 'any' }, async ({ user }) => ({ status: 200, body: { name: (await user()).name } }));
      const silent = httpHandler({ user: 'any' }, async () => ({ status: 200, body: { secret: 'answered' } }));

      expect(JSON.parse((await handler(asUser(tenant.limitedToken), lambdaContext('test'))).body!)).toEqual({ name: 'limited' });
      expect(outcome(await silent(asUser('sut_wrong'), lambdaContext('test')))).toEqual([401, '/problems/unauthenticated']);
      expect(outcome(await silent(asUser(undefined), lambdaContext('test')))).toEqual([401, '/problems/unauthenticated']);
    });

    it("answers a refused token's 401 over whatever the operation threw while the token was checked", async () => {
      const handler = httpHandler({ user: 'any' }, async ({ user }) => {
        await Promise.all([user(), Promise.reject(new NotFoundError('No such thing.'))]);
        return { status: 200 };
      });

      expect(outcome(await handler(asUser('sut_wrong'), lambdaContext('test')))).toEqual([401, '/problems/unauthenticated']);
      expect(outcome(await handler(asUser(tenant.userToken), lambdaContext('test')))).toEqual([404, '/problems/not-found']);
    });

    it('refuses a user without every store before the operation runs, where the route needs every store', async () => {
      let ran = 0;
      const handler = httpHandler({ user: { everyStore: 'These need every store.' } }, async () => {
        ran++;
        return { status: 204 };
      });

      const limited = await handler(asUser(tenant.limitedToken), lambdaContext('test'));
      expect([limited.statusCode, JSON.parse(limited.body!).detail]).toEqual([401, 'These need every store.']);
      expect(ran).toBe(0);
      expect((await handler(asUser(tenant.userToken), lambdaContext('test'))).statusCode).toBe(204);
      expect(ran).toBe(1);
    });
  });
});
