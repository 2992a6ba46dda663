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

  describe('on a route that reads a JSON body', () => {
    const Body = v.strictObject({ n: v.number() });
    const handler = httpHandler({ body: Body }, async ({ body, sent }) => ({ status: 200, body: { n: body.n, sent } }));
    const post = (contentType: string | undefined, body: string | undefined, isBase64Encoded = false) =>
      handler(
        httpEvent(
          {
            method: 'POST',
            routePath: '/x',
            rawPath: '/x',
            requestId: 'req-123',
            body,
            isBase64Encoded,
            ...(contentType === undefined ? {} : { headers: { 'content-type': contentType } }),
          },
          TENANT_1,
        ),
        lambdaContext('test'),
      );
    const answer = (res: { statusCode?: number; body?: string; headers?: Record<string, unknown> }) => [
      res.statusCode,
      res.headers?.['content-type'],
      JSON.parse(res.body!),
    ];

    it('parses the body of any JSON media type, in any case, with parameters, and base64-encoded', async () => {
      for (const type of [
        'application/json',
        'application/json; charset=utf-8',
        'Application/JSON',
        'application/json ;charset=UTF-8',
        'application/merge-patch+json',
      ])
        expect({ type, answer: answer(await post(type, '{"n":1}')) }).toEqual({
          type,
          answer: [200, 'application/json', { n: 1, sent: { n: 1 } }],
        });
      expect(answer(await post('application/json', Buffer.from('{"n":2}').toString('base64'), true))).toEqual([
        200,
        'application/json',
        { n: 2, sent: { n: 2 } },
      ]);
    });

    it('answers another media type 415, malformed JSON 400 and no body 400, each with its problem', async () => {
      const unsupported = {
        type: '/problems/unsupported-media-type',
        title: 'Unsupported media type',
        status: 415,
        detail: 'Send the body as JSON with Content-Type: application/json.',
      };
      for (const type of ['text/plain', 'application/jsonp', 'application/xml', '', undefined])
        expect({ type, answer: answer(await post(type, '{"n":1}')) }).toEqual({
          type,
          answer: [415, 'application/problem+json', unsupported],
        });
      const malformed = {
        type: '/problems/malformed-json',
        title: 'Malformed JSON body',
        status: 400,
        detail: 'The body is not valid JSON.',
      };
      for (const body of ['{"n": ', "{'n': 1}", '{"n":1}}'])
        expect({ body, answer: answer(await post('application/json', body)) }).toEqual({
          body,
          answer: [400, 'application/problem+json', malformed],
        });
      expect(answer(await post('application/json', '{"n":"1"}'))).toMatchObject([
        400,
        'application/problem+json',
        { type: '/problems/validation' },
      ]);
      expect(answer(await post('application/json', ''))).toEqual([
        400,
        'application/problem+json',
        {
          type: '/problems/validation',
          title: 'Invalid parameters',
          status: 400,
          detail: 'A JSON body is required.',
          errors: [{ path: 'body', message: 'is required' }],
        },
      ]);
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

    it("answers a refused token's 401 before a body it cannot parse, and a valid token's malformed body 400", async () => {
      const handler = httpHandler({ user: 'any', body: v.strictObject({}) }, async () => ({ status: 204 }));
      const post = (token: string, contentType: string) =>
        handler(
          { ...asUser(token), body: '{"n": ', headers: { 'x-service-user-token': token, 'content-type': contentType } },
          lambdaContext('test'),
        );

      expect(outcome(await post('sut_wrong', 'application/json'))).toEqual([401, '/problems/unauthenticated']);
      expect(outcome(await post('sut_wrong', 'text/plain'))).toEqual([401, '/problems/unauthenticated']);
      expect(outcome(await post(tenant.userToken, 'application/json'))).toEqual([400, '/problems/malformed-json']);
      expect(outcome(await post(tenant.userToken, 'text/plain'))).toEqual([415, '/problems/unsupported-media-type']);
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
