import { TooManyError } from '../errors.js';
import type { HeldSlot, OpenRequestSlots, PrivacyRequests } from './ports.js';
import type { PrivacyRequestInput, PrivacyRequestView } from './schema.js';
import { newPrivacyRequestId } from './service.js';

/** How many privacy requests a tenant may have pending at once: each is kept five years, and each costs a search. */
export const MAX_OPEN_PRIVACY_REQUESTS = 50;
/**
 * A request is worked on within seconds of its submit (an erasure is pending until its second pass, two minutes on):
 * a minute later, the tenant may well have room again.
 */
export const OPEN_REQUESTS_RETRY_SECONDS = 60;
/** A slot whose request was never written (its submit failed after the claim) is free this long after its claim. */
const UNWRITTEN_GRACE_MS = 60_000;
/** Reads of the slots before the tenant is told to wait, when concurrent submits keep taking the free ones. */
const ROUNDS = 4;
/** Held slots whose requests are read at once, when no slot is empty: the first one done frees a slot. */
const CHECK_BATCH = 10;

type Submit = (tenantId: number, request: { input: PrivacyRequestInput; requestedBy: string; id?: string }) => Promise<PrivacyRequestView>;

const shuffled = <T>(list: T[]): T[] => {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
};

/**
 * Submits a privacy request only when the tenant has fewer than MAX_OPEN_PRIVACY_REQUESTS pending; otherwise a 429
 * naming the bound, with Retry-After. The request first claims one of the tenant's slots with a conditional write
 * (an empty one, or one whose request is done or failed), then is written: every pending request holds its own
 * slot, so the bound is exact under any concurrency. Concurrent submits claim different slots picked at random, so
 * they do not all write one counter item; a slot is freed by reading its request's status, so no decrement is
 * written when a request finishes (a decrement lost or doubled would drift a counter for good).
 */
export function boundOpenRequests(
  { slots, requests }: { slots: OpenRequestSlots; requests: Pick<PrivacyRequests, 'get'> },
  submit: Submit,
) {
  /** Whether a held slot's request still counts: pending, or claimed so recently that it may not be written yet. */
  async function stillOpen(tenantId: number, held: HeldSlot, now: number): Promise<boolean> {
    const request = await requests.get(tenantId, held.holder);
    return request ? request.status === 'pending' : Date.parse(held.claimedAt) > now - UNWRITTEN_GRACE_MS;
  }

  async function claimSlot(tenantId: number, id: string): Promise<boolean> {
    for (let round = 0; round < ROUNDS; round++) {
      const now = Date.now();
      const at = new Date(now).toISOString();
      const held = await slots.held(tenantId);
      const taken = new Set(held.map((slot) => slot.slot));
      const empty = shuffled(Array.from({ length: MAX_OPEN_PRIVACY_REQUESTS }, (_, slot) => slot).filter((slot) => !taken.has(slot)));
      if (empty.length) {
        // Each failed claim is another request's success: when all fail, the slots are read again.
        for (const slot of empty) if (await slots.claim(tenantId, { slot, holder: id, at })) return true;
        continue;
      }
      const candidates = shuffled(held);
      let contended = false;
      for (let i = 0; i < candidates.length; i += CHECK_BATCH) {
        const batch = candidates.slice(i, i + CHECK_BATCH);
        const open = await Promise.all(batch.map((slot) => stillOpen(tenantId, slot, now)));
        for (const [j, slot] of batch.entries()) {
          if (open[j]) continue;
          if (await slots.claim(tenantId, { slot: slot.slot, holder: id, at, previous: slot.holder })) return true;
          contended = true;
        }
      }
      // Every slot is held by an open request: the bound is reached.
      if (!contended) return false;
    }
    return false;
  }

  return async function submitBounded(tenantId: number, input: PrivacyRequestInput, requestedBy: string): Promise<PrivacyRequestView> {
    const id = newPrivacyRequestId();
    if (!(await claimSlot(tenantId, id)))
      throw new TooManyError(
        `A tenant may have at most ${MAX_OPEN_PRIVACY_REQUESTS} privacy requests pending at once; retry after ${OPEN_REQUESTS_RETRY_SECONDS} seconds.`,
        OPEN_REQUESTS_RETRY_SECONDS,
      );
    return submit(tenantId, { input, requestedBy, id });
  };
}
