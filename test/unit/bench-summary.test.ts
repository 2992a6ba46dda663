import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  BLOCK_BEGIN,
  BLOCK_END,
  missedGates,
  performanceBlock,
  summarise,
  V2_BLOCK_BEGIN,
  V2_BLOCK_END,
  v2CostBlock,
} from '../../bench/summary.js';

const table = (rows: string[]) =>
  [
    '### Consumer throughput (500 transactions)',
    '',
    '| path | transactions/s | ratio to floor |',
    '|---|---:|---:|',
    ...rows,
    '',
    'Target: x.',
  ].join('\n');

describe('the summary of a benchmark run in docs/performance.md', () => {
  it('says a target is met, with the worst row', () => {
    expect(summarise([table(['| consumer | 180 | 0.83 |', '| floor: the writes | 216 | 1.00 |'])])).toEqual([
      '- **Consumer throughput**: ratio to floor 0.83',
      '  - target ratio to floor ≥ 0.8: **met** (worst 0.83)',
    ]);
  });

  it('says a target is missed, with the worst row and the known reason', () => {
    const [, target] = summarise([table(['| consumer | 136 | 0.63 |', '| floor: the writes | 216 | 1.00 |'])]);
    expect(target).toMatch(/^ {2}- target ratio to floor ≥ 0\.8: \*\*missed\*\* \(worst 0\.63\): the consumer shares two cores/);
  });

  it('names the highest of a column that must stay under its bound', () => {
    const cold = [
      '### Cold-start proxy (bundles)',
      '',
      '| function | size ÷ floor | import ÷ own floor |',
      '|---|---:|---:|',
      '| floor: the client | 1.00 | |',
      '| getStore | 1.26 | 1.10 |',
      '| postTransaction | 1.56 | 1.23 |',
    ].join('\n');
    expect(summarise([cold])).toEqual([
      '- **Cold-start proxy**: size ÷ floor 1.26 to 1.56 (highest: postTransaction); import ÷ own floor 1.10 to 1.23 (highest: postTransaction)',
      expect.stringMatching(
        /^ {2}- target import ÷ own floor ≤ 1\.2: \*\*missed\*\* \(worst postTransaction 1\.23\): the functions above it take phones/,
      ),
      '  - target size ÷ floor ≤ 2: **met** (worst postTransaction 1.56)',
    ]);
  });

  it('replaces the block of docs/performance.md and nothing else, linking the full tables from there', () => {
    const pageUrl = new URL('../../docs/performance.md', import.meta.url);
    const page = readFileSync(pageUrl, 'utf8');
    const written = performanceBlock(page, '`npm run bench`, a run', [table(['| consumer | 180 | 0.83 |'])]);
    const [before, after] = [page.slice(0, page.indexOf(BLOCK_BEGIN)), page.slice(page.indexOf(BLOCK_END))];
    expect(written.startsWith(before) && written.endsWith(after)).toBe(true);
    expect(written).toContain('Latest run: `npm run bench`, a run.');
    expect(written).toContain('- **Consumer throughput**: ratio to floor 0.83');
    const [, link] = /\]\(([^)]+latest\.md)\)/.exec(written.slice(written.indexOf(BLOCK_BEGIN)))!;
    expect(existsSync(new URL(link!, pageUrl))).toBe(true);
  });
});

/** The v2 transaction's table as `npm run bench -- cost` printed it on 2026-11-29 (before issue 62), with `rows` changed. */
const v2Table = (rows: Record<string, string> = {}) =>
  [
    '### One v2 transaction end to end (100 transactions, half with a new customer; list prices, us-east-1, arm64)',
    '',
    '| part | per transaction | $ per million | floor $ per million | ratio |',
    '|---|---|---:|---:|---:|',
    '| API Gateway HTTP API | 1 request | $1.00 | $1.00 | 1.00 |',
    '| Lambda postV2Transaction | 1 request, 31 ms × 512 MB | $0.41 | $0.41 | 1.00 |',
    '| SQS TransactionQueue | 1.00 SendMessage, a receive and a delete per batch of 10 | $0.48 | $0.48 | 1.00 |',
    '| Lambda transactionConsumer | 1/10 request, 447 ms per batch × 512 MB / 10 | $0.32 | $0.32 | 1.00 |',
    rows.DynamoDB ?? '| DynamoDB | 0.30 read units, 5.52 write units (floor: 4.00 write units) | $3.49 | $2.50 | 1.40 |',
    '| SQS SurveyDispatchQueue | 0.10 requests (surveys scheduled) | $0.04 | $0.04 | 1.00 |',
    rows.logs ?? '| CloudWatch Logs | 807 bytes ingested (target: at most $0.05) | $0.38 | $0.05 | 8.01 |',
    rows.total ?? '| **total** | | **$6.11** | **$4.79** | **1.27** |',
    '',
    "The floor is this design's least for the same mix.",
    '',
    'Each survey then sent adds its channel:',
    '',
    '| channel | list price | $ per million surveys |',
    '|---|---|---:|',
    '| email | SES outbound | $100 |',
  ].join('\n');

describe('the gates of npm run bench', () => {
  it('fails a run whose v2 transaction costs more than 1.1 of its floor, or logs more than $0.05 per million (the run measured before issue 62)', () => {
    const missed = missedGates([v2Table()]);
    expect(missed).toHaveLength(2);
    expect(missed[0]).toMatch(/^One v2 transaction end to end: total ratio ≤ 1\.1: \*\*missed\*\* \(worst 1\.27\)/);
    expect(missed[1]).toMatch(/^One v2 transaction end to end: CloudWatch Logs \$ per million ≤ 0\.05: \*\*missed\*\* \(worst 0\.38\)/);
  });

  it('fails on either target alone, and passes a run within both', () => {
    const logsWithin = '| CloudWatch Logs | 66 bytes ingested | $0.03 | $0.02 | 1.50 |';
    expect(missedGates([v2Table({ logs: logsWithin })])).toEqual([expect.stringMatching(/total ratio ≤ 1\.1: \*\*missed\*\*/)]);
    expect(missedGates([v2Table({ total: '| **total** | | **$5.20** | **$4.77** | **1.09** |' })])).toEqual([
      expect.stringMatching(/CloudWatch Logs \$ per million ≤ 0\.05: \*\*missed\*\*/),
    ]);
    expect(missedGates([v2Table({ logs: logsWithin, total: '| **total** | | **$5.20** | **$4.77** | **1.09** |' })])).toEqual([]);
    // Other targets (a busy machine's latency) do not fail a run.
    expect(missedGates([table(['| consumer | 136 | 0.63 |'])])).toEqual([]);
  });

  it('fails a run whose v2 table lost the figure a gate reads', () => {
    const logs = '| CloudWatch Logs | 66 bytes ingested | $0.03 | $0.02 | 1.50 |';
    expect(missedGates([v2Table({ logs, total: '| total, unread | | | | |' })])).toEqual([
      expect.stringMatching(/total ratio: no figure to judge$/),
    ]);
  });

  it('writes the v2 table into its block of docs/performance.md and nothing else', () => {
    const pageUrl = new URL('../../docs/performance.md', import.meta.url);
    const page = readFileSync(pageUrl, 'utf8');
    const written = v2CostBlock(page, '`npm run bench -- cost`, a run', v2Table());
    const [before, after] = [page.slice(0, page.indexOf(V2_BLOCK_BEGIN)), page.slice(page.indexOf(V2_BLOCK_END))];
    expect(written.startsWith(before) && written.endsWith(after)).toBe(true);
    const block = written.slice(written.indexOf(V2_BLOCK_BEGIN), written.indexOf(V2_BLOCK_END));
    expect(block).toContain('**One v2 transaction end to end (100 transactions');
    expect(block).toContain('| **total** | | **$6.11** | **$4.79** | **1.27** |');
    expect(block).not.toContain('Each survey then sent');
  });
});
