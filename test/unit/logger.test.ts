import { afterEach, describe, expect, it, vi } from 'vitest';
import { lambdaContext } from '../../infra/local/events.js';

/** The logger as a function loads it, with the environment given; every line written to stdout and stderr, parsed. */
async function freshLogger(env: Record<string, string | undefined> = {}) {
  vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'INFO');
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  vi.resetModules();
  const { logger } = await import('../../shared/logger.js');
  const { logInvocation } = await import('../../shared/http/log-invocation.js');
  const out: Record<string, any>[] = [];
  const err: Record<string, any>[] = [];
  const into = (lines: Record<string, any>[]) => (chunk: unknown) => {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(into(out));
  vi.spyOn(process.stderr, 'write').mockImplementation(into(err));
  return { logger, logInvocation, out, err };
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('the logger', () => {
  it("writes one JSON line with Powertools' keys, the invocation's context and the keys appended, at or above its level", async () => {
    const { logger, out } = await freshLogger({ _X_AMZN_TRACE_ID: 'Root=1-abc-def;Parent=123;Sampled=0' });
    logger.debug('not at INFO');
    logger.info('before any context');
    logger.addContext(lambdaContext('getStore'));
    logger.appendKeys({ tenantId: 7 });
    logger.info('served', { status: 200, empty: '', none: null });
    logger.addContext(lambdaContext('getStore'));
    logger.info('again');

    expect(out.map((line) => line.message)).toEqual(['before any context', 'served', 'again']);
    expect(Object.keys(out[0]!)).toEqual(['level', 'message', 'timestamp', 'service', 'xray_trace_id']);
    expect(out[1]).toEqual({
      level: 'INFO',
      message: 'served',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      service: 'survey-service',
      cold_start: true,
      function_arn: expect.stringContaining('getStore'),
      function_memory_size: expect.anything(),
      function_name: 'getStore',
      function_request_id: expect.any(String),
      xray_trace_id: '1-abc-def',
      tenantId: 7,
      status: 200,
    });
    expect(out[2]).toMatchObject({ cold_start: false, tenantId: 7 });
  });

  it('writes warnings and errors to stderr, an error with its name, location, message, stack and cause', async () => {
    const { logger, out, err } = await freshLogger();
    // Made in a named function, so that the stack's first frame reads `at made (file:line:column)`.
    const made = () => Object.assign(new Error('outer', { cause: new TypeError('inner') }), { code: 'E42' });
    const failure = made();
    logger.warn('careful');
    logger.error('Unhandled error', failure);
    logger.error('nested', { error: failure, big: 10n ** 20n });

    expect(out).toEqual([]);
    expect(err.map((line) => line.level)).toEqual(['WARN', 'ERROR', 'ERROR']);
    expect(err[1]!.error).toEqual({
      name: 'Error',
      location: expect.stringMatching(/logger\.test\.ts:\d+$/),
      message: 'outer',
      stack: expect.stringContaining('outer'),
      cause: expect.objectContaining({ name: 'TypeError', message: 'inner' }),
      code: 'E42',
    });
    expect(err[2]).toMatchObject({ error: { message: 'outer', code: 'E42' }, big: '100000000000000000000' });
  });

  it('leaves a circular reference out instead of failing the line', async () => {
    const { logger, out } = await freshLogger();
    const loop: Record<string, unknown> = { name: 'loop' };
    loop.self = loop;
    logger.info('circular', { loop });
    expect(out[0]!.loop).toEqual({ name: 'loop' });
  });

  it("takes its level from POWERTOOLS_LOG_LEVEL, never more verbose than Lambda's, and from setLogLevel", async () => {
    const debug = await freshLogger({ POWERTOOLS_LOG_LEVEL: 'debug' });
    debug.logger.debug('shown');
    expect(debug.out.map((line) => line.message)).toEqual(['shown']);
    vi.restoreAllMocks();

    const capped = await freshLogger({ POWERTOOLS_LOG_LEVEL: 'DEBUG', AWS_LAMBDA_LOG_LEVEL: 'WARN' });
    capped.logger.info('dropped by Lambda anyway');
    capped.logger.warn('kept');
    expect(capped.logger.getLevelName()).toBe('WARN');
    expect([...capped.out, ...capped.err].map((line) => line.message)).toEqual(['kept']);

    capped.logger.setLogLevel('SILENT');
    capped.logger.error('silent');
    expect(capped.err).toHaveLength(1);
  });

  it('resets the keys a request appended when the HTTP middleware finishes, whether the request succeeded or failed', async () => {
    const { logger, logInvocation, out } = await freshLogger();
    const middleware = logInvocation();
    const request = { event: {}, context: lambdaContext('listStores'), response: undefined, error: undefined, internal: {} };
    await middleware.before!(request as never);
    logger.appendKeys({ requestId: 'r-1' });
    logger.info('inside');
    await middleware.after!(request as never);
    logger.info('after');
    logger.appendKeys({ requestId: 'r-2' });
    await middleware.onError!(request as never);
    logger.info('after the error');

    expect(out.map((line) => [line.message, line.requestId, line.function_name])).toEqual([
      ['inside', 'r-1', 'listStores'],
      ['after', undefined, 'listStores'],
      ['after the error', undefined, 'listStores'],
    ]);
  });
});
