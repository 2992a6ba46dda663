import { addDays } from '../dates.js';
import type { AnalysisOutcome } from './analysis.js';
import type { ReanalysisCheckpoint, ReanalysisPorts } from './ports.js';

/**
 * Applies the tenant's current themes to the comments answered from `from` to `to` (UTC days, both included): day by
 * day, a page of answers at a time from each index partition of the day (Queries, never a Scan), each reanalysed
 * (`reanalyse`, which takes back what it counted). After each page the checkpoint says where it is, so a run that
 * stops is continued by the next run with the same period; another period starts again. Reports each page.
 */
export async function reanalyseComments(
  ports: ReanalysisPorts & { reanalyse: (tenantId: number, transactionId: number) => Promise<AnalysisOutcome> },
  tenantId: number,
  { period, report }: { period: { from: string; to: string }; report: (line: string) => void },
): Promise<ReanalysisCheckpoint> {
  const saved = await ports.checkpoint.read(tenantId);
  const resumed = saved?.from === period.from && saved.to === period.to;
  const wholeDay = () => Array.from({ length: ports.partitions }, (_, partition) => ({ partition, cursor: null }));
  let at: ReanalysisCheckpoint = resumed ? saved : { ...period, day: period.from, pending: wholeDay(), moved: 0, read: 0 };
  report(resumed ? `continuing at ${at.day} (${at.read} answers read, ${at.moved} moved)` : `reanalysing ${period.from} to ${period.to}`);
  while (at.day <= period.to) {
    const { day } = at;
    // A page of each partition with pages left, at once (one round trip of waiting), then its answers one at a time:
    // the operator's run should not take the capacity new answers need.
    const pages = await Promise.all(at.pending.map(({ partition, cursor }) => ports.answersOfDay(tenantId, { day, partition, cursor })));
    const ids = pages.flatMap((page) => page.transactionIds);
    let moved = 0;
    for (const id of ids) if ((await ports.reanalyse(tenantId, id)) === 'analysed') moved++;
    const pending = at.pending.flatMap(({ partition }, i) => (pages[i]!.next ? [{ partition, cursor: pages[i]!.next }] : []));
    at = {
      ...at,
      ...(pending.length ? { pending } : { day: addDays(day, 1), pending: wholeDay() }),
      moved: at.moved + moved,
      read: at.read + ids.length,
    };
    await ports.checkpoint.write(tenantId, at);
    if (ids.length) report(`${day}: ${at.read} answers read, ${at.moved} moved`);
  }
  await ports.checkpoint.write(tenantId, null);
  report(`done: ${at.read} answers read, ${at.moved} moved to the current themes`);
  return at;
}
