import { validateHeaderValue } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { ENV } from '../../shared/config.js';
import { cookieValue, readChallenge, safeNext, sameOrigin, sessionCookies, challengeCookie } from '../../shared/session/cookies.js';
import { sessionFromContext } from '../../shared/session/context.js';
import type { AttemptKey, IdentityProvider, SessionTokens, SignInAttempts, SignInOutcome } from '../../shared/session/ports.js';
import { sealer } from '../../shared/sealed.js';
import { newPasswordService, sessionService, signInService, SIGN_IN_LIMITS, type SessionRequest } from '../../shared/session/service.js';
import { signInPages as sessionPages } from '../../shared/workspace/sign-in-page.js';

/** Cognito as the session sees it: one account with a password, one invited account, refresh tokens it issued. */
function memoryIdentityProvider() {
  const passwords = new Map([['ana@example.com', 'Senha-certa-1']]);
  const invited = new Map([['novo@example.com', 'Temporaria-1']]);
  const refreshTokens = new Set<string>();
  const calls: string[] = [];
  let issued = 0;
  const tokens = (): SessionTokens => {
    const refreshToken = `refresh-${++issued}`;
    refreshTokens.add(refreshToken);
    return { idToken: `id-${issued}`, refreshToken, expiresInSeconds: 900 };
  };
  const idp: IdentityProvider = {
    async signIn(username, password): Promise<SignInOutcome> {
      calls.push(`signIn ${username}`);
      if (invited.get(username) === password) return { kind: 'new-password', challenge: `challenge-for-${username}` };
      return passwords.get(username) === password ? { kind: 'signed-in', tokens: tokens() } : { kind: 'refused' };
    },
    async setNewPassword(username, challenge, newPassword) {
      if (challenge !== `challenge-for-${username}` || !invited.has(username)) return { kind: 'refused' };
      if (newPassword.length < 12) return { kind: 'weak-password' };
      invited.delete(username);
      passwords.set(username, newPassword);
      return { kind: 'signed-in', tokens: tokens() };
    },
    async refresh(refreshToken) {
      return refreshTokens.has(refreshToken) ? { idToken: `id-${++issued}`, expiresInSeconds: 900 } : undefined;
    },
    async revoke(refreshToken) {
      refreshTokens.delete(refreshToken);
    },
  };
  return { idp, calls, refreshTokens };
}

/** Failed sign-ins in memory, keeping the port's promises: a window from a key's first failure, forgotten on request. */
function memoryAttempts(): SignInAttempts {
  const counted = new Map<string, { failures: number; until: number }>();
  const id = (key: AttemptKey) => `${key.kind}:${key.id}`;
  const current = (key: AttemptKey, now: Date) => {
    const entry = counted.get(id(key));
    return entry && entry.until > now.getTime() ? entry : undefined;
  };
  return {
    async failures(keys, now) {
      return keys.map((key) => {
        const entry = current(key, now);
        return entry ? { failures: entry.failures, endsAt: entry.until } : { failures: 0 };
      });
    },
    async fail(keys, now, windowSeconds) {
      for (const key of keys) {
        const entry = current(key, now) ?? { failures: 0, until: now.getTime() + windowSeconds * 1000 };
        counted.set(id(key), { ...entry, failures: entry.failures + 1 });
      }
    },
    async forget(key) {
      counted.delete(id(key));
    },
  };
}

const challenges = sealer(() => 'a-unit-test-secret-of-some-length', 'sign-in-challenge/v1');

/** The sign-in and new-password pages over the in-memory Cognito and attempts, on a clock the test moves. */
function signInPages(idp: IdentityProvider, clock = { now: new Date('2026-03-02T12:00:00Z') }) {
  const now = () => clock.now;
  return {
    ...signInService(idp, { challenges, attempts: memoryAttempts(), pages: sessionPages, now }),
    ...newPasswordService(idp, { challenges, pages: sessionPages, now }),
    clock,
  };
}

const request = (over: Partial<SessionRequest> = {}): SessionRequest => ({
  base: '',
  address: '198.51.100.7',
  form: new URLSearchParams(),
  query: {},
  cookies: {},
  ...over,
});
const names = (cookies: string[] | undefined) => (cookies ?? []).map((c) => c.split(';')[0]);

describe('the session rules', () => {
  it('sends a sign-in only to a workspace page of this deployment, never elsewhere', () => {
    expect(safeNext('', '/app/results?journey=loja')).toBe('/app/results?journey=loja');
    expect(safeNext('/prod', '/prod/app/results')).toBe('/prod/app/results');
    for (const next of [
      'https://evil.example/app/',
      '//evil.example/app/',
      '/app/../admin',
      '/app//evil',
      '/results',
      '/app/sign-in',
      '/app/session/sign-out',
      '/prod/app/results',
      '/app/\\evil',
      undefined,
    ])
      expect(safeNext('', next), String(next)).toBe('/app/results');
  });

  it('percent-encodes what a Location cannot carry, and sends controls, backslashes and disguised dot segments home', () => {
    expect(safeNext('', '/app/\u3002x')).toBe('/app/%E3%80%82x');
    expect(safeNext('', '/app/answers?q=ação')).toBe('/app/answers?q=a%C3%A7%C3%A3o');
    for (const next of [
      '/app/\u0000x',
      '/app/x\ty',
      '/app/x\u0085',
      '/app/\ud800',
      '/app/%2e%2e/sign-in',
      '/app/%2E./x',
      '/app/.',
      '/app/x?a=<b>',
    ])
      expect(safeNext('', next), JSON.stringify(next)).toBe('/app/results');
  });

  it('answers any hostile next with a same-site workspace path a Location header may carry', () => {
    const hostile = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }).map((tail) => `/app/${tail}`),
      fc
        .string({
          unit: fc.constantFrom('/', '.', '\\', '%', '2', 'e', 'a', '?', '#', ':', '@', '\u3002', '\u0000', '\n', ' '),
          maxLength: 20,
        })
        .map((tail) => `/app/${tail}`),
      fc.string({ unit: 'binary', maxLength: 60 }),
    );
    fc.assert(
      fc.property(hostile, fc.constantFrom('', '/prod'), (next, base) => {
        const safe = safeNext(base, next);
        expect(() => validateHeaderValue('location', safe)).not.toThrow();
        expect(safe).toMatch(/^[\x21-\x7e]+$/);
        const url = new URL(safe, 'https://workspace.example');
        expect(url.origin).toBe('https://workspace.example');
        expect(`${url.pathname}${url.search}${url.hash}`).toBe(safe);
        expect(url.pathname.startsWith(`${base}/app/`)).toBe(true);
        expect(url.pathname.startsWith(`${base}/app/session`) || url.pathname.startsWith(`${base}/app/sign-in`)).toBe(false);
        expect(safeNext(base, safe)).toBe(safe);
      }),
      { numRuns: 300 },
    );
  }, 30_000);

  it('sets HttpOnly, Secure, SameSite=Lax cookies: the ID token for /app, the refresh token for /app/session only', () => {
    expect(sessionCookies('/prod', { idToken: 'id', refreshToken: 'rt', expiresInSeconds: 900 })).toEqual([
      'sid=id; Path=/prod/app; Max-Age=900; HttpOnly; Secure; SameSite=Lax',
      'srt=rt; Path=/prod/app/session; Max-Age=2592000; HttpOnly; Secure; SameSite=Lax',
      'sch=; Path=/prod/app/sign-in; Max-Age=0; HttpOnly; Secure; SameSite=Lax',
    ]);
  });

  it('reads a cookie among the request cookies, and a challenge only as this deployment sealed it, while it lasts', () => {
    expect(cookieValue(['a=1', 'sid=abc.def', 'srt=x=y'], 'sid')).toBe('abc.def');
    expect(cookieValue(['srt=x=y'], 'srt')).toBe('x=y');
    expect(cookieValue(['xsid=1'], 'sid')).toBeUndefined();
    const now = Date.parse('2026-03-02T12:00:00Z');
    const value = challengeCookie({ base: '', challenges, username: 'ana@example.com', challenge: 'session', now })
      .split(';')[0]!
      .slice('sch='.length);
    expect(readChallenge(challenges, value, now + 179_000)).toEqual({ username: 'ana@example.com', challenge: 'session' });
    expect(readChallenge(challenges, value, now + 180_000)).toBeUndefined();
    expect(Buffer.from(value, 'base64url').toString('latin1')).not.toContain('ana@example.com');
    const tampered = `${value.slice(0, 20)}${value[20] === 'A' ? 'B' : 'A'}${value.slice(21)}`;
    const otherDeployment = sealer(() => 'another-deployments-secret-value', 'sign-in-challenge/v1');
    const otherPurpose = sealer(() => 'a-unit-test-secret-of-some-length', 'shown-once/v1');
    for (const bad of [
      '',
      'not-base64!',
      Buffer.from(JSON.stringify(['ana@example.com', 'session'])).toString('base64url'),
      tampered,
      otherDeployment.seal({ username: 'ana@example.com', challenge: 'session', until: now + 60_000 }, 'sch'),
      otherPurpose.seal({ username: 'ana@example.com', challenge: 'session', until: now + 60_000 }, 'sch'),
    ])
      expect(readChallenge(challenges, bad, now), bad).toBeUndefined();
  });

  it("takes a form post only from the service's own pages", () => {
    vi.stubEnv(ENV.localDeployment, '1');
    expect(sameOrigin({ origin: 'http://localhost:3000', host: 'localhost:3000' })).toBe(true);
    expect(sameOrigin({ origin: 'https://evil.example', host: 'localhost:3000' })).toBe(false);
    expect(sameOrigin({ host: 'localhost:3000' })).toBe(false);
    expect(sameOrigin({ origin: 'null', host: 'localhost:3000', 'sec-fetch-site': 'same-origin' })).toBe(true);
    expect(sameOrigin({ origin: 'null', host: 'localhost:3000', 'sec-fetch-site': 'cross-site' })).toBe(false);
    vi.unstubAllEnvs();
  });

  it('compares the whole origin: another scheme or port on the same host is another site', () => {
    vi.stubEnv(ENV.localDeployment, '1');
    expect(sameOrigin({ origin: 'https://127.0.0.1:4200', host: '127.0.0.1:4200' })).toBe(false);
    expect(sameOrigin({ origin: 'http://127.0.0.1:4201', host: '127.0.0.1:4200' })).toBe(false);
    expect(sameOrigin({ origin: 'http://127.0.0.1:80', host: '127.0.0.1' })).toBe(true);
    // On AWS the API is https only: an http origin is not its own.
    vi.stubEnv(ENV.localDeployment, undefined);
    expect(sameOrigin({ origin: 'http://abc.execute-api.example', host: 'abc.execute-api.example' })).toBe(false);
    expect(sameOrigin({ origin: 'https://abc.execute-api.example', host: 'abc.execute-api.example' })).toBe(true);
    vi.unstubAllEnvs();
  });

  it("reads the authorizer's context, numbers as strings included, and nothing else as a session", () => {
    expect(sessionFromContext({ tenantId: '7', user: 'ana@example.com' })).toEqual({ tenantId: 7, user: 'ana@example.com' });
    for (const context of [
      {},
      undefined,
      { tenantId: 0, user: 'a' },
      { tenantId: 1, user: '' },
      { authenticated: true, tenantId: 1, scope: 'public' },
    ])
      expect(sessionFromContext(context)).toBeUndefined();
  });
});

describe('signing in and out', () => {
  it('signs in with the right password and goes where it was asked, with the session cookies', async () => {
    const { idp } = memoryIdentityProvider();
    const answer = await signInPages(idp).submitSignIn(
      request({
        form: new URLSearchParams({ email: ' Ana@Example.com ', password: 'Senha-certa-1', next: '/app/results?from=2026-01-01' }),
      }),
    );
    expect(answer.status).toBe(303);
    expect(answer.location).toBe('/app/results?from=2026-01-01');
    expect(names(answer.cookies)).toEqual(['sid=id-1', 'srt=refresh-1', 'sch=']);
  });

  it('answers a wrong password, an unknown address and an empty form with the form again and no cookie', async () => {
    const { idp, calls } = memoryIdentityProvider();
    const service = signInPages(idp);
    const wrong = await service.submitSignIn(request({ form: new URLSearchParams({ email: 'ana@example.com', password: 'errada' }) }));
    const unknown = await service.submitSignIn(request({ form: new URLSearchParams({ email: 'ninguem@example.com', password: 'x' }) }));
    const empty = await service.submitSignIn(request({ form: new URLSearchParams({ email: 'ana@example.com' }) }));
    expect([wrong.status, unknown.status, empty.status]).toEqual([401, 401, 400]);
    expect(wrong.html).toContain('E-mail ou senha incorretos.');
    // The same words whether the address has an account or not.
    expect(unknown.html).toContain('E-mail ou senha incorretos.');
    expect(empty.html).toContain('Informe o e-mail e a senha.');
    expect([wrong.cookies, unknown.cookies, empty.cookies]).toEqual([undefined, undefined, undefined]);
    // An empty password never reaches Cognito.
    expect(calls).toEqual(['signIn ana@example.com', 'signIn ninguem@example.com']);
  });

  it('has an invited user choose a password first, then signs them in with it', async () => {
    const { idp } = memoryIdentityProvider();
    const service = signInPages(idp);
    const first = await service.submitSignIn(
      request({ form: new URLSearchParams({ email: 'novo@example.com', password: 'Temporaria-1' }) }),
    );
    expect(first.status).toBe(200);
    expect(first.html).toContain('Escolha sua senha');
    const challenge = first.cookies![0]!.split(';')[0]!.slice('sch='.length);

    const differ = await service.submitNewPassword(
      request({ form: new URLSearchParams({ password: 'Nova-senha-longa-1', confirm: 'outra' }), cookies: { challenge } }),
    );
    expect(differ.status).toBe(400);
    const weak = await service.submitNewPassword(
      request({ form: new URLSearchParams({ password: 'curta', confirm: 'curta' }), cookies: { challenge } }),
    );
    expect([weak.status, weak.html?.includes('não atende à política')]).toEqual([400, true]);
    const expired = await service.submitNewPassword(
      request({ form: new URLSearchParams({ password: 'Nova-senha-longa-1', confirm: 'Nova-senha-longa-1' }) }),
    );
    expect(expired.status).toBe(401);

    const chosen = await service.submitNewPassword(
      request({ form: new URLSearchParams({ password: 'Nova-senha-longa-1', confirm: 'Nova-senha-longa-1' }), cookies: { challenge } }),
    );
    expect([chosen.status, chosen.location]).toEqual([303, '/app/results']);
    const again = await service.submitSignIn(
      request({ form: new URLSearchParams({ email: 'novo@example.com', password: 'Nova-senha-longa-1' }) }),
    );
    expect(again.status).toBe(303);
  });

  it('refreshes a session from its refresh cookie, and sends a revoked or missing one to sign in with the cookies cleared', async () => {
    const { idp } = memoryIdentityProvider();
    const service = sessionService(idp);
    const signedIn = await signInPages(idp).submitSignIn(
      request({ form: new URLSearchParams({ email: 'ana@example.com', password: 'Senha-certa-1' }) }),
    );
    const refresh = signedIn.cookies![1]!.split(';')[0]!.slice('srt='.length);

    const renewed = await service.refresh(request({ query: { next: '/app/results?journey=loja' }, cookies: { refresh } }));
    expect([renewed.status, renewed.location, names(renewed.cookies)]).toEqual([303, '/app/results?journey=loja', ['sid=id-2', 'sch=']]);

    const out = await service.signOut(request({ cookies: { refresh } }));
    expect([out.status, out.location, names(out.cookies)]).toEqual([303, '/app/sign-in', ['sid=', 'srt=']]);
    const afterOut = await service.refresh(request({ query: { next: '/app/results' }, cookies: { refresh } }));
    expect([afterOut.status, afterOut.location, names(afterOut.cookies)]).toEqual([
      303,
      '/app/sign-in?next=%2Fapp%2Fresults',
      ['sid=', 'srt='],
    ]);
    const none = await service.refresh(request({ query: { next: 'https://evil.example/' } }));
    expect(none.location).toBe('/app/sign-in?next=%2Fapp%2Fresults');
  });

  it('locks an account after its failures in a window, the right password too, until the window ends; a success forgets them', async () => {
    const { idp, calls } = memoryIdentityProvider();
    const pages = signInPages(idp);
    const attempt = (password: string, address = '198.51.100.7') =>
      pages.submitSignIn(request({ address, form: new URLSearchParams({ email: 'ana@example.com', password }) }));
    for (let i = 1; i < SIGN_IN_LIMITS.perAccount; i++) expect((await attempt('errada')).status).toBe(401);
    // One short of the limit, the right password signs in and the count starts again.
    expect((await attempt('Senha-certa-1')).status).toBe(303);
    for (let i = 0; i < SIGN_IN_LIMITS.perAccount; i++) expect((await attempt('errada')).status).toBe(401);
    const locked = await attempt('Senha-certa-1', '203.0.113.9');
    expect(locked.status).toBe(429);
    expect(locked.html).toContain('Muitas tentativas. Espere alguns minutos e tente de novo.');
    // The window began at the first of these failures, on this clock that did not move: all of it is left.
    expect(locked.retryAfter).toBe(SIGN_IN_LIMITS.windowSeconds);
    expect(locked.cookies).toBeUndefined();
    const asked = calls.length;
    pages.clock.now = new Date(pages.clock.now.getTime() + SIGN_IN_LIMITS.windowSeconds * 1000 - 1000);
    const later = await attempt('Senha-certa-1');
    expect([later.status, later.retryAfter]).toEqual([429, 1]);
    // A locked sign-in never reaches the identity provider.
    expect(calls).toHaveLength(asked);
    pages.clock.now = new Date(pages.clock.now.getTime() + 1000);
    expect((await attempt('Senha-certa-1')).status).toBe(303);
  });

  it('locks an address that fails on many accounts, for every account, and a success elsewhere does not unlock it', async () => {
    const { idp } = memoryIdentityProvider();
    const pages = signInPages(idp);
    const attempt = (email: string, password: string, address = '198.51.100.7') =>
      pages.submitSignIn(request({ address, form: new URLSearchParams({ email, password }) }));
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress; i++) expect((await attempt(`quem-${i}@example.com`, 'x')).status).toBe(401);
    expect((await attempt('ana@example.com', 'Senha-certa-1')).status).toBe(429);
    expect((await attempt('ana@example.com', 'Senha-certa-1', '203.0.113.9')).status).toBe(303);
    expect((await attempt('ana@example.com', 'Senha-certa-1')).status).toBe(429);
  });
});
