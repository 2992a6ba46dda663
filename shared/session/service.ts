import { redirect, type WebAnswer } from '../web-answer.js';
import { challengeCookie, clearedCookies, readChallenge, safeNext, sessionCookies } from './cookies.js';
import { SIGN_IN_PATH } from './paths.js';
import type { Sealer } from '../sealed.js';
import { UnauthenticatedError } from '../errors.js';
import { localeOfRequest } from '../i18n/messages.js';
import type { Locale } from '../locale.js';
import type { AttemptKey, IdentityProvider, SessionClaims, SessionPages, SignInAttempts, SignInOutcome, SignInProblem } from './ports.js';

/** What the session's pages receive: the stage's path prefix and the posted form or the query. */
export interface SessionRequest {
  base: string;
  /** The address the request came from (API Gateway's source IP). */
  address: string;
  form: URLSearchParams;
  query: Record<string, string | undefined>;
  /** The browser's Accept-Language: the sign-in pages' language, before the tenant is known. */
  acceptLanguage?: string | undefined;
  cookies: { session?: string | undefined; refresh?: string | undefined; challenge?: string | undefined };
}

const MAX_EMAIL = 254;
const MAX_PASSWORD = 256;

/**
 * The service's own bound on guessing passwords (Cognito has its own on AWS; the local emulator none): failures
 * counted per account and per address, each in a window from its first failure. Past a limit every sign-in of that
 * account or address is refused, the right password too, until the window ends; signing in forgets the account's
 * failures, not the address's (one address may try many accounts).
 */
export const SIGN_IN_LIMITS = { windowSeconds: 15 * 60, perAccount: 10, perAddress: 50 } as const;

function answer({
  challenges,
  pages,
  base,
  next,
  locale,
  outcome,
  username,
  again,
}: {
  challenges: Sealer;
  pages: SessionPages;
  base: string;
  next: string;
  locale: Locale;
  outcome: SignInOutcome;
  username: string;
  again: (problem: SignInProblem) => string;
}): WebAnswer {
  switch (outcome.kind) {
    case 'signed-in':
      return redirect(next, sessionCookies(base, outcome.tokens));
    case 'new-password':
      return {
        status: 200,
        html: pages.newPassword({ base, next, locale }),
        cookies: [challengeCookie({ base, challenges, username, challenge: outcome.challenge })],
      };
    case 'too-many':
      return { status: 429, html: again('tooMany') };
    case 'weak-password':
      return { status: 400, html: pages.newPassword({ base, next, locale, problem: 'weak' }) };
    case 'refused':
      return { status: 401, html: again('refused') };
  }
}

/**
 * Signing in: the service posts the manager's e-mail and password to Cognito and keeps the tokens it answers in
 * cookies (`cookies.ts`); the password passes through once and is kept nowhere. An invited user's challenge goes to
 * the new-password form sealed (`challenges`). Failures are bounded (SIGN_IN_LIMITS).
 */
export function signInService(
  idp: IdentityProvider,
  {
    challenges,
    attempts,
    pages,
    now = () => new Date(),
  }: { challenges: Sealer; attempts: SignInAttempts; pages: SessionPages; now?: () => Date },
) {
  async function submitSignIn({ base, address, form, acceptLanguage }: SessionRequest): Promise<WebAnswer> {
    const next = safeNext(base, form.get('next') ?? undefined);
    const locale = localeOfRequest(acceptLanguage);
    const email = (form.get('email') ?? '').trim().toLowerCase();
    const password = form.get('password') ?? '';
    const again = (problem: SignInProblem) => pages.signIn({ base, next, locale, problem, email: email.length <= MAX_EMAIL ? email : '' });
    if (!email || !password) return { status: 400, html: again('missing') };
    if (email.length > MAX_EMAIL || password.length > MAX_PASSWORD) return { status: 401, html: again('refused') };
    const account: AttemptKey = { kind: 'account', id: email };
    const keys = [account, { kind: 'address', id: address } as const];
    const [byAccount = { failures: 0 }, byAddress = { failures: 0 }] = await attempts.failures(keys, now());
    const locked = [
      ...(byAccount.failures >= SIGN_IN_LIMITS.perAccount ? [byAccount] : []),
      ...(byAddress.failures >= SIGN_IN_LIMITS.perAddress ? [byAddress] : []),
    ];
    if (locked.length) {
      // Until the last of the locks that hold ends (Retry-After, in whole seconds).
      const endsAt = Math.max(...locked.map((lock) => lock.endsAt ?? now().getTime() + SIGN_IN_LIMITS.windowSeconds * 1000));
      const retryAfter = Math.max(1, Math.ceil((endsAt - now().getTime()) / 1000));
      return { status: 429, html: again('tooMany'), retryAfter };
    }
    const outcome = await idp.signIn(email, password);
    if (outcome.kind === 'refused') await attempts.fail(keys, now(), SIGN_IN_LIMITS.windowSeconds);
    else if (outcome.kind === 'signed-in' || outcome.kind === 'new-password') await attempts.forget(account);
    return answer({ challenges, pages, base, next, locale, outcome, username: email, again });
  }

  return { submitSignIn };
}

/** An invited user's new password, for the challenge their sealed cookie holds (only theirs, for 3 minutes). */
export function newPasswordService(
  idp: IdentityProvider,
  { challenges, pages, now = () => new Date() }: { challenges: Sealer; pages: SessionPages; now?: () => Date },
) {
  async function submitNewPassword({ base, form, cookies, acceptLanguage }: SessionRequest): Promise<WebAnswer> {
    const next = safeNext(base, form.get('next') ?? undefined);
    const locale = localeOfRequest(acceptLanguage);
    const challenge = readChallenge(challenges, cookies.challenge, now().getTime());
    // The challenge lasts 3 minutes: past it (or forged), the invited user signs in again with the temporary password.
    if (!challenge) return { status: 401, html: pages.signIn({ base, next, locale, problem: 'expired' }) };
    const password = form.get('password') ?? '';
    if (!password || password.length > MAX_PASSWORD)
      return { status: 400, html: pages.newPassword({ base, next, locale, problem: 'missingPassword' }) };
    if (password !== form.get('confirm')) return { status: 400, html: pages.newPassword({ base, next, locale, problem: 'mismatch' }) };
    const outcome = await idp.setNewPassword(challenge.username, challenge.challenge, password);
    return answer({
      challenges,
      pages,
      base,
      next,
      locale,
      outcome,
      username: challenge.username,
      again: (problem) => pages.signIn({ base, next, locale, problem }),
    });
  }

  return { submitNewPassword };
}

/** Refreshing and ending a session: Cognito's refresh and revocation of the refresh cookie's token. */
export function sessionService(
  idp: IdentityProvider,
  {
    admits,
  }: {
    /**
     * Whether the user an ID token names may still use the workspace (the tenant has them, not disabled): a refresh
     * for one who may not is refused and its refresh token revoked, whatever the identity provider answered.
     */
    admits?: (idToken: string) => Promise<boolean>;
  } = {},
) {
  const signInUrl = (base: string, next: string) => `${base}${SIGN_IN_PATH}?next=${encodeURIComponent(next)}`;

  /** New tokens for the refresh cookie, back to where the manager was going; without one, or refused: sign in. */
  async function refresh({ base, query, cookies }: SessionRequest): Promise<WebAnswer> {
    const next = safeNext(base, query.next);
    const tokens = cookies.refresh ? await idp.refresh(cookies.refresh) : undefined;
    if (tokens && admits && !(await admits(tokens.idToken))) {
      await idp.revoke(cookies.refresh!);
      return redirect(signInUrl(base, next), clearedCookies(base));
    }
    return tokens ? redirect(next, sessionCookies(base, tokens)) : redirect(signInUrl(base, next), clearedCookies(base));
  }

  async function signOut({ base, cookies }: SessionRequest): Promise<WebAnswer> {
    if (cookies.refresh) await idp.revoke(cookies.refresh);
    return redirect(`${base}${SIGN_IN_PATH}`, clearedCookies(base));
  }

  return { refresh, signOut };
}

/**
 * Whether the user a fresh ID token names may still use the workspace (the refresh's `admits`): the token verified, then
 * the tenant's own check of its user (a disabled or removed one is refused).
 */
export function sessionAdmission(
  verify: (idToken: string) => Promise<SessionClaims | undefined>,
  resolveSessionUser: (tenantId: number, name: string) => Promise<unknown>,
): (idToken: string) => Promise<boolean> {
  return async (idToken) => {
    const claims = await verify(idToken);
    if (!claims) return false;
    try {
      await resolveSessionUser(claims.tenantId, claims.user);
      return true;
    } catch (refused) {
      if (refused instanceof UnauthenticatedError) return false;
      throw refused;
    }
  };
}
