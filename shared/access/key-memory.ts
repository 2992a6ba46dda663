import type { AuthContext } from './auth-context.js';

/**
 * Keys an authorizer has verified, so that ingestion survives a table outage: while the table cannot be reached, a
 * key this process verified within OUTAGE_GRACE_SECONDS keeps its tenant; a key it saw unknown or revoked is
 * forgotten at once and never answered from memory. Keys are held by their hash, at most MAX_REMEMBERED of them.
 */
export const OUTAGE_GRACE_SECONDS = 900;
export const MAX_REMEMBERED = 10_000;

type Verified = Extract<AuthContext, { authenticated: true }>;

export function keyMemory(now: () => number = Date.now) {
  const verified = new Map<string, { context: Verified; at: number }>();
  return {
    /** What the table said about a key: verified keys are remembered (from now), others forgotten. */
    remember(keyHash: string, context: AuthContext): void {
      verified.delete(keyHash);
      if (!context.authenticated) return;
      if (verified.size >= MAX_REMEMBERED) verified.delete(verified.keys().next().value!);
      verified.set(keyHash, { context, at: now() });
    },
    /** The context of a key verified within the grace period, for when the table cannot be reached. */
    recall(keyHash: string): Verified | undefined {
      const entry = verified.get(keyHash);
      return entry && now() - entry.at <= OUTAGE_GRACE_SECONDS * 1000 ? entry.context : undefined;
    },
  };
}
