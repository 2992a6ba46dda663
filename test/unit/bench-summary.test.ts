import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BLOCK_BEGIN, BLOCK_END, performanceBlock, summarise } from '../../bench/summary.js';

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
