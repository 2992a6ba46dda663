import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { addDays } from '../dates.js';
import { logger } from '../logger.js';
import { consumerTimeoutOf } from '../queues.js';
import { linkKeyOf } from './datasets.js';
import { allWritten, type AnalyticsExport, type DaysJob, type WriteAt } from './export.js';
import type { AnalyticsFiles } from './ports.js';

/**
 * A tenant's analytics days written by a chain of invocations (docs/analytics.md, "A day in links"): at the scale
 * target one day of one tenant takes far longer than an invocation may run. Each link writes row groups until
 * LINK_SECONDS are spent, saves where it stopped (the chain's item in the table; the half-written file in the bucket),
 * and queues the next link; the last one completes the uploads, so each object still shows whole at once, and does
 * what the chain was for (clears the marks of the days it wrote, completes a privacy request...).
 */

/**
 * The most a link writes for: it stops after the row group (about 56 s at the bench's pace) that a next one would take
 * past this. Within the consumer's 300 s, with room for a slow row group and the save.
 */
export const LINK_SECONDS = 240;
/**
 * A link's hold on its chain: longer than the consumer may run (its invocation is over by then), shorter than the
 * queue's visibility timeout (six times as long), so the message of a link that died comes back to a chain free again.
 */
export const LINK_LEASE_SECONDS = consumerTimeoutOf('analytics') + 60;
/** A chain's item goes with the table's TTL this long after it began: a done daily run keeps the day claimed meanwhile. */
export const CHAIN_TTL_DAYS = 7;

/** LINK_SECONDS, or the environment's (the local stack's tests make it 0: a link per row group or object). */
export function linkSecondsOf(value: string | undefined): number {
  if (value === undefined || value === '') return LINK_SECONDS;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > LINK_SECONDS)
    throw new Error(`ANALYTICS_LINK_SECONDS must be a number of seconds from 0 to ${LINK_SECONDS}`);
  return seconds;
}

const Mark = v.object({ utcDay: v.string(), shard: v.number(), token: v.string() });
/** What a chain is for once its days are written: the daily run's, an erasure's, or nothing more. */
export const ChainEnd = v.union([
  /** The daily run of `day`: the marks it read are cleared, the days past retention deleted. */
  v.object({ run: v.object({ day: v.string(), marks: v.array(Mark) }) }),
  /** An erasure: its privacy request is done. */
  v.object({ erasure: v.string() }),
  v.object({}),
]);
export type ChainEnd = v.InferOutput<typeof ChainEnd>;
export type ChainJob = DaysJob & { then: ChainEnd };

/** The analytics queue's message of a chain's next link. */
export const LinkMessage = v.object({ version: v.literal(1), tenantId: v.number(), chain: v.string(), seq: v.number() });
export type LinkMessage = v.InferOutput<typeof LinkMessage>;

/**
 * A chain as kept: `seq` counts its links (a message names the one it runs), `advancedAt` when the last one ended;
 * `leasedUntil` while a link holds it.
 */
export interface StoredChain {
  job: ChainJob;
  at: WriteAt;
  seq: number;
  done: boolean;
  advancedAt: string;
  leasedUntil: string | null;
}

/** The chains' items (shared/adapters/analytics-chains.ts): every write after `create` is conditional on `seq` and `owner`. */
export interface ExportChains {
  /** Begins a chain unless one of this id exists (false). */
  create(tenantId: number, chain: { chainId: string; job: ChainJob; now: Date }): Promise<boolean>;
  read(tenantId: number, chainId: string): Promise<StoredChain | undefined>;
  /** Holds link `seq` for `owner` until `until`, unless another holds it or the chain moved on (false). */
  lease(tenantId: number, link: ChainLink, lease: { now: Date; until: Date }): Promise<boolean>;
  /** Where link `seq` now stands (an object completed), still held. */
  checkpoint(tenantId: number, link: ChainLink, at: WriteAt): Promise<void>;
  /** Ends link `seq` at `now`: the chain at `seq + 1`, from `at` (`done`: nothing left), held by none. */
  advance(tenantId: number, link: ChainLink, end: { at: WriteAt; done: boolean; now: Date }): Promise<void>;
  /** Gives back the hold of a link that failed (its message comes back: the retry goes on from the last checkpoint). */
  release(tenantId: number, link: ChainLink): Promise<void>;
}

/** One link of a chain (its number, `seq`) as held by `owner`, the one invocation running it. */
export interface ChainLink {
  chainId: string;
  seq: number;
  owner: string;
}

export interface ChainPorts {
  chains: ExportChains;
  files: Pick<AnalyticsFiles, 'keep' | 'read' | 'remove'>;
  /** Queues a chain's next link on the analytics queue. */
  send(message: LinkMessage): Promise<void>;
  /** An erasure's days are written: its privacy request is done. */
  erasureWritten(tenantId: number, requestId: string): Promise<void>;
}

export type LinkOutcome = 'written' | 'continued' | 'duplicate' | 'busy';

export function exportChains(
  ports: ChainPorts,
  exporter: AnalyticsExport,
  { linkSeconds = LINK_SECONDS, clock = () => Date.now() }: { linkSeconds?: number; clock?: () => number } = {},
) {
  /** What the chain was for, once its days are written (each step may be done twice: a retry of the last link). */
  async function end({ tenantId, then }: ChainJob): Promise<void> {
    if ('run' in then) {
      await exporter.clearMarks(tenantId, then.run.marks);
      await exporter.expireDays(tenantId, addDays(then.run.day, 1));
    }
    if ('erasure' in then) await ports.erasureWritten(tenantId, then.erasure);
  }

  /**
   * Runs the link a message names: nothing if the chain moved on (a message delivered twice) or another invocation holds
   * it (that one's message comes back if it dies); else writes from where the chain stands for linkSeconds, saves, and
   * queues the next link, or, all written, ends the chain.
   */
  async function run(message: LinkMessage, now = new Date()): Promise<LinkOutcome> {
    const { tenantId, chain: chainId, seq } = message;
    const chain = await ports.chains.read(tenantId, chainId);
    if (!chain || chain.done) return 'duplicate';
    const idleSince = new Date(now.getTime() - LINK_LEASE_SECONDS * 1000).toISOString();
    if (chain.seq !== seq) {
      // This link ended and saved, but the next one's message may not have gone (its send failed, and this message
      // came back, a visibility timeout later): if the chain has not moved since, it is sent again (twice is harmless).
      // A copy delivered at once finds the chain just moved, and sends nothing.
      if (chain.seq === seq + 1 && chain.leasedUntil === null && chain.advancedAt < idleSince)
        await ports.send({ ...message, seq: chain.seq });
      return 'duplicate';
    }
    const link = { chainId, seq, owner: randomUUID() };
    if (!(await ports.chains.lease(tenantId, link, { now, until: new Date(now.getTime() + LINK_LEASE_SECONDS * 1000) }))) return 'busy';
    // Asked after each row group (or object): the link stops when another as long as the last would end past its time.
    const dueAt = clock() + linkSeconds * 1000;
    let last = clock();
    const due = () => {
      const at = clock();
      const step = at - last;
      last = at;
      return at + step >= dueAt;
    };
    try {
      const saved = chain.at.upload ? await ports.files.read(linkKeyOf(tenantId, chainId, seq)) : undefined;
      const stop = await exporter.writeDays(chain.job, chain.at, {
        saved,
        due,
        completed: (at) => ports.chains.checkpoint(tenantId, link, at),
      });
      const done = allWritten(chain.job, stop.at);
      if (done) await end(chain.job);
      else if (stop.saved) await ports.files.keep(linkKeyOf(tenantId, chainId, seq + 1), stop.saved);
      await ports.chains.advance(tenantId, link, { at: stop.at, done, now: new Date(clock()) });
      if (saved !== undefined) await ports.files.remove(linkKeyOf(tenantId, chainId, seq));
      logger.info('Analytics chain link', { tenantId, chain: chainId, seq, done, at: { day: stop.at.day, dataset: stop.at.dataset } });
      if (done) return 'written';
      await ports.send({ version: 1, tenantId, chain: chainId, seq: seq + 1 });
      return 'continued';
    } catch (error) {
      await ports.chains.release(tenantId, link);
      throw error;
    }
  }

  /**
   * Begins a chain writing `days` (unless one of this id exists: a message delivered again) and runs its first link here.
   */
  async function start(chainId: string, job: ChainJob, now = new Date()): Promise<LinkOutcome> {
    await ports.chains.create(job.tenantId, { chainId, job, now });
    return run({ version: 1, tenantId: job.tenantId, chain: chainId, seq: 0 }, now);
  }

  /**
   * Begins a chain writing again the days an erasure reached, among those written already, whose end completes the
   * privacy request (by the analytics queue's consumer: its first link is queued, not run here); with none, completes it.
   */
  async function rewriteDaysOf(tenantId: number, instants: string[], requestId: string): Promise<void> {
    const now = new Date();
    const days = await exporter.writtenDaysOf(tenantId, instants);
    // None written (a tenant that does not export): nothing to wait for.
    if (!days.length) return ports.erasureWritten(tenantId, requestId);
    const chainId = `erasure-${requestId}`;
    await ports.chains.create(tenantId, { chainId, job: { tenantId, days, then: { erasure: requestId } }, now });
    await ports.send({ version: 1, tenantId, chain: chainId, seq: 0 });
  }

  return { run, start, rewriteDaysOf };
}

export type ExportChainsService = ReturnType<typeof exportChains>;
