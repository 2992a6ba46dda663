import * as v from 'valibot';
import { isLocalDeployment } from '../config.js';
import type { Sealer } from '../sealed.js';
import { APP_HOME, APP_PATH, SESSION_PATH, SIGN_IN_PATH } from './paths.js';

/**
 * The session, in cookies. The cookies hold Cognito's own tokens rather than an opaque id: the authorizer verifies the
 * ID token against the pool's public keys (cached), with no table read and no session store, and sign-out revokes the
 * refresh token at Cognito. The ID token lives 15 minutes (the pool's setting), so a copied cookie outlives a
 * sign-out by at most that; the refresh token goes only to /app/session. All are HttpOnly (no script reads them),
 * Secure, and SameSite=Lax: a link from an e-mail opens the workspace signed in, and no other site can post with them.
 */
export const SESSION_COOKIE = 'sid';
export const REFRESH_COOKIE = 'srt';
/** An invited user's new-password challenge, between the two sign-in forms (Cognito's session lasts 3 minutes). */
export const CHALLENGE_COOKIE = 'sch';
const CHALLENGE_SECONDS = 180;
/**
 * A secret an admin page made (a new API key, a user's token), carried from the form's post to the page it redirects
 * to, so a refresh does not post again; read there once and cleared. Scoped to that page's path, strict, two minutes.
 */
export const SHOWN_ONCE_COOKIE = 'sso';
export const SHOWN_ONCE_SECONDS = 120;
/** The refresh token's lifetime (the pool's setting): the cookie goes when the token does. */
export const REFRESH_DAYS = 30;

const cookie = ({ name, value, path, maxAge }: { name: string; value: string; path: string; maxAge: number }) =>
  `${name}=${value}; Path=${path}; Max-Age=${maxAge}; HttpOnly; Secure; SameSite=Lax`;

/** The cookies a sign-in or a refresh sets; `base` is the stage's path prefix ('' at the root). */
export function sessionCookies(base: string, tokens: { idToken: string; refreshToken?: string | undefined; expiresInSeconds: number }) {
  return [
    cookie({ name: SESSION_COOKIE, value: tokens.idToken, path: `${base}${APP_PATH}`, maxAge: tokens.expiresInSeconds }),
    ...(tokens.refreshToken
      ? [cookie({ name: REFRESH_COOKIE, value: tokens.refreshToken, path: `${base}${SESSION_PATH}`, maxAge: REFRESH_DAYS * 86_400 })]
      : []),
    ...clearChallenge(base),
  ];
}

export const shownOnceCookie = (base: string, path: string, value: string) =>
  `${SHOWN_ONCE_COOKIE}=${value}; Path=${base}${path}; Max-Age=${SHOWN_ONCE_SECONDS}; HttpOnly; Secure; SameSite=Strict`;
export const clearedShownOnce = (base: string, path: string) =>
  `${SHOWN_ONCE_COOKIE}=; Path=${base}${path}; Max-Age=0; HttpOnly; Secure; SameSite=Strict`;

/** The cookies sign-out (or a refused refresh) sets: every session cookie expired. */
export const clearedCookies = (base: string) => [
  cookie({ name: SESSION_COOKIE, value: '', path: `${base}${APP_PATH}`, maxAge: 0 }),
  cookie({ name: REFRESH_COOKIE, value: '', path: `${base}${SESSION_PATH}`, maxAge: 0 }),
];

/**
 * The challenge cookie: the username and Cognito's session sealed together (the deployment's key, this purpose only),
 * with their expiry, so that nobody can make one for another account or keep one past its 3 minutes.
 */
export const challengeCookie = ({
  base,
  challenges,
  username,
  challenge,
  now = Date.now(),
}: {
  base: string;
  challenges: Sealer;
  username: string;
  challenge: string;
  now?: number;
}) =>
  cookie({
    name: CHALLENGE_COOKIE,
    value: challenges.seal({ username, challenge, until: now + CHALLENGE_SECONDS * 1000 }, CHALLENGE_COOKIE),
    path: `${base}${SIGN_IN_PATH}`,
    maxAge: CHALLENGE_SECONDS,
  });

const clearChallenge = (base: string) => [cookie({ name: CHALLENGE_COOKIE, value: '', path: `${base}${SIGN_IN_PATH}`, maxAge: 0 })];

const Challenge = v.strictObject({
  username: v.pipe(v.string(), v.minLength(1), v.maxLength(254)),
  challenge: v.pipe(v.string(), v.minLength(1), v.maxLength(4096)),
  until: v.number(),
});

/** The username and Cognito session a challenge cookie this deployment sealed holds, while it lasts; else undefined. */
export function readChallenge(
  challenges: Sealer,
  value: string | undefined,
  now = Date.now(),
): { username: string; challenge: string } | undefined {
  const parsed = v.safeParse(Challenge, value ? challenges.open(value, CHALLENGE_COOKIE) : undefined);
  if (!parsed.success || parsed.output.until <= now) return undefined;
  return { username: parsed.output.username, challenge: parsed.output.challenge };
}

/** A cookie's value among the request's cookies (payload format 2.0 hands them as `name=value` strings). */
export function cookieValue(cookies: readonly string[] | undefined, name: string): string | undefined {
  for (const entry of cookies ?? []) {
    for (const part of entry.split(';')) {
      const at = part.indexOf('=');
      if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim() || undefined;
    }
  }
  return undefined;
}

/**
 * Where to go after signing in: a workspace path this deployment serves, never another site (`//evil.example`,
 * `https://...`, `/app/../x`, `/app/%2e%2e/x`), and only what a Location header may carry. Characters beyond ASCII
 * are percent-encoded (as a browser sends them); controls, spaces and backslashes, or a path a URL parser would read
 * differently than it is written (a dot segment, `//`), send home instead.
 */
export function safeNext(base: string, next: string | undefined): string {
  const home = `${base}${APP_HOME}`;
  if (!next || next.length > 512 || /[^\u0021-\u007e\u00a0-\u{10ffff}]|\\|\/\//u.test(next)) return home;
  const origin = 'http://workspace.invalid';
  try {
    // encodeURI throws on a lone surrogate (it has no encoding), and so does a URL that cannot be parsed: home.
    const path = next.replace(/[^\u0021-\u007e]+/g, encodeURI);
    const parsed = new URL(path, origin);
    if (parsed.origin !== origin || `${parsed.pathname}${parsed.search}${parsed.hash}` !== path) return home;
    if (!path.startsWith(`${base}${APP_PATH}/`) || path.startsWith(`${base}${SESSION_PATH}`) || path.startsWith(`${base}${SIGN_IN_PATH}`))
      return home;
    return path;
  } catch {
    return home;
  }
}

/**
 * Whether a state-changing request comes from the workspace's own pages: its Origin (sent by every browser on a POST)
 * is the origin it was sent to, scheme, host and port. SameSite=Lax already keeps the session cookie off other sites'
 * posts; this also refuses a cross-site post to the sign-in form (login CSRF). API Gateway serves https only; the local
 * stack's gateway serves http.
 */
export function sameOrigin(headers: Record<string, string | undefined>): boolean {
  const origin = headers.origin;
  const host = headers.host;
  // A browser that hides the origin (`null`) still says where the request came from: Sec-Fetch-Site, which no page
  // can set.
  if (!origin || origin === 'null') return headers['sec-fetch-site'] === 'same-origin';
  if (!host) return false;
  try {
    return new URL(origin).origin === new URL(`${isLocalDeployment() ? 'http' : 'https'}://${host}`).origin;
  } catch {
    return false;
  }
}
