import type { Locale } from '../locale.js';
/** What Cognito answers a sign-in with: the tokens, kept in the session cookies. */
export interface SessionTokens {
  idToken: string;
  /** Absent when a refresh answers (Cognito keeps the refresh token it was given). */
  refreshToken?: string | undefined;
  /** The ID token's lifetime. */
  expiresInSeconds: number;
}

export type SignInOutcome =
  | { kind: 'signed-in'; tokens: SessionTokens }
  /** An invited user's first sign-in: a new password is required; `challenge` is Cognito's session for it. */
  | { kind: 'new-password'; challenge: string }
  /** Unknown user, wrong password, disabled user: one answer for all, so that nobody learns which. */
  | { kind: 'refused' }
  /** The new password does not meet the pool's policy. */
  | { kind: 'weak-password' }
  | { kind: 'too-many' };

/** The identity provider managers sign in with (Cognito: `shared/adapters/cognito.ts`). No password is kept here. */
export interface IdentityProvider {
  signIn(username: string, password: string): Promise<SignInOutcome>;
  setNewPassword(username: string, challenge: string, newPassword: string): Promise<SignInOutcome>;
  /** New tokens for a refresh token, or undefined when it is no longer valid (revoked, expired). */
  refresh(refreshToken: string): Promise<SessionTokens | undefined>;
  /** Revokes the refresh token (and the tokens it issued): sign-out. */
  revoke(refreshToken: string): Promise<void>;
}

/** Who a verified session token names: the tenant, and the tenant user's name (the e-mail address they sign in with). */
export interface SessionClaims {
  tenantId: number;
  user: string;
}

/** Checks a session's ID token (signature, issuer, audience, expiry, use) and reads who it names. */
export interface SessionVerifier {
  verify(idToken: string): Promise<SessionClaims | undefined>;
}

/** Creates sign-in users in the identity provider (the admin command). */
export interface UserDirectory {
  /**
   * Creates the user, bound to its tenant, and sends the invitation with a temporary password (Cognito's e-mail on
   * AWS). With `temporaryPassword` the caller chose it and shows it itself (the local stack: no e-mail leaves).
   * `exists`: the address signs in to this tenant already. `elsewhere`: it signs in to another tenant (the pool is the
   * deployment's, one account per address), left as it is.
   */
  invite(user: { email: string; tenantId: number; temporaryPassword?: string | undefined }): Promise<'created' | 'exists' | 'elsewhere'>;
  /** Sets a permanent password (the local demo users only). */
  setPassword(email: string, password: string): Promise<void>;
}

/** Whose failed sign-ins are counted: the name signed in with (any tenant's), or the address the form came from. */
export interface AttemptKey {
  kind: 'account' | 'address';
  id: string;
}

/**
 * Failed sign-ins, counted per key in a window that starts at the key's first failure and ends `windowSeconds`
 * later (shared/adapters/sign-in-attempts.ts: one small item per key, gone with the table's TTL).
 */
export interface SignInAttempts {
  /**
   * The failures counted in each key's current window and when it ends (epoch ms), in the keys' order (0 failures and
   * no end: none, or the window has passed).
   */
  failures(keys: readonly AttemptKey[], now: Date): Promise<{ failures: number; endsAt?: number }[]>;
  /** Counts one failure against each key; a key without a current window starts one. */
  fail(keys: readonly AttemptKey[], now: Date, windowSeconds: number): Promise<void>;
  /** Forgets a key's failures (the account, once signed in). */
  forget(key: AttemptKey): Promise<void>;
}

/** What was wrong with a sign-in or a new password, for the page to say in the workspace's words. */
export type SignInProblem = 'refused' | 'tooMany' | 'missing' | 'expired' | 'missingPassword' | 'mismatch' | 'weak';

/** The pages the session service answers with (shared/workspace/sign-in-page.ts): documents, ready to send. */
export interface SessionPages {
  /** In `locale`: the browser's language among the service's (no tenant is known before signing in). */
  signIn(form: SignInForm & { email?: string }): string;
  newPassword(form: SignInForm): string;
}

/** A sign-in page's form: the service's base path, where to go next, the page's language, the problem to show. */
export interface SignInForm {
  base: string;
  next: string;
  locale: Locale;
  problem?: SignInProblem | undefined;
}
