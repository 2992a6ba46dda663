import { afterEach, describe, expect, it, vi } from 'vitest';

/** The metrics module as deployed: metrics enabled, written to stdout in embedded metric format. */
async function deployedMetrics() {
  vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
  vi.stubEnv('POWERTOOLS_DEV', '');
  vi.resetModules();
  const module = await import('../../shared/metrics.js');
  const lines: Record<string, any>[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    return true;
  });
  return { ...module, lines, stop: () => write.mockRestore() };
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('business metrics', () => {
  it('sum a batch of counts into one line per dimension value, written at the flush', async () => {
    const { count, flushMetrics, lines, stop } = await deployedMetrics();
    for (let i = 0; i < 10; i++) {
      count('TransactionsCreated');
      count('SurveysSuppressed', 'no_contact');
    }
    count('SurveysSuppressed', 'opted_out');
    count('TransactionsRejected', 'no_contact', 2);
    expect(lines).toEqual([]);
    flushMetrics();
    stop();

    expect(lines).toHaveLength(3);
    const byReason = (reason?: string) => lines.find((line) => line.reason === reason)!;
    expect(byReason('no_contact')).toMatchObject({ SurveysSuppressed: 10, TransactionsRejected: 2 });
    expect(byReason('no_contact')._aws.CloudWatchMetrics[0].Dimensions).toEqual([['service', 'reason']]);
    expect(byReason('opted_out')).toMatchObject({ SurveysSuppressed: 1 });
    expect(byReason(undefined)).toMatchObject({ TransactionsCreated: 10 });

    // The next invocation starts from nothing.
    lines.length = 0;
    flushMetrics();
    expect(lines).toEqual([]);
  });
});
