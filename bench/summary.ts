/**
 * The short form of a benchmark report in docs/performance.md: for each table, the range of its ratio columns (each figure over
 * its floor) and its total, with the row that is worst. The full tables stay in bench/results/latest.md.
 */

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim());

const isRatioColumn = (header: string) => /\bratio\b|÷ (own )?floor|^growth$/.test(header);
/** A cell's number; NaN for a cell without one (a dash, an empty cell). */
const number = (cell: string) => (/\d/.test(cell) ? Number(cell.replace(/[^0-9.-]/g, '')) : NaN);

/**
 * Each benchmark's targets: the table (by the start of its title), the column, the rows it applies to (all measured
 * rows when absent), and the bound. `ifMissed` is what is known of the reason when a run misses it, and what would
 * reach it; a target a run meets shows no reason.
 */
interface Target {
  table: string;
  column: string;
  row?: string;
  atMost?: number;
  atLeast?: number;
  ifMissed: string;
  /** The run fails (exits non-zero) when it misses this target: a figure the docs quote that must not drift. */
  gate?: true;
}

export const TARGETS: Target[] = [
  {
    table: 'Comment analysis, per million comments',
    column: 'with sentiment $/M',
    atMost: 350,
    ifMissed:
      "a comment of over 300 characters takes more of Comprehend's units than its minimum 3; otherwise the analysis calls Comprehend for more than the sentiment (see the calls column)",
  },
  {
    table: 'Comment analysis, per million comments',
    column: 'without sentiment $/M',
    atMost: 10,
    ifMissed: 'the analysis calls Comprehend though the tenant turned it off, or writes more than its answer, counters and list entries',
  },
  {
    table: 'Scale',
    column: 'of 1,000',
    atMost: 10,
    ifMissed:
      "the due-minute partition (DUE#<minute>: a second's reminders parked in one partition, and the scheduler's release deleting a minute's in one run) is the deadlines branch's to shard; the tenant's configuration version, read strongly by every batch and survey page, is next",
  },
  {
    table: 'One v2 transaction end to end',
    column: 'ratio',
    row: '**total**',
    atMost: 1.1,
    ifMissed:
      "see the table of its write units by what they wrote: each row above its floor is a write a feature added to every transaction, and the reads (a batch's configuration check and references) are all above a floor that has none",
    gate: true,
  },
  {
    table: 'One v2 transaction end to end',
    column: '$ per million',
    row: 'CloudWatch Logs',
    atMost: 0.05,
    ifMissed: 'the functions log more than one INFO line per batch, or a line per request (see the bytes of each side in the table)',
    gate: true,
  },
  {
    table: 'Warm latency',
    column: 'p50 ratio',
    atMost: 1.25,
    ifMissed: 'a run on a busy machine moves short calls by more than their spread; rerun alone',
  },
  {
    table: 'Warm latency',
    column: 'p99 ratio',
    atMost: 1.5,
    ifMissed: 'a run on a busy machine moves short calls by more than their spread; rerun alone',
  },
  {
    table: 'Consumer throughput',
    column: 'ratio to floor',
    atLeast: 0.8,
    ifMissed:
      'the consumer shares two cores with DynamoDB Local: its validation, rules and batch bookkeeping take CPU the bare writes of the floor do not, and a new customer takes one write more (its guard) than the floor',
  },
  {
    table: 'Through HTTP',
    column: 'non-2xx or errors',
    atMost: 0,
    ifMissed: 'see the table: every answer should be 2xx',
  },
  {
    table: 'Cold-start proxy',
    column: 'import ÷ own floor',
    atMost: 1.2,
    ifMissed:
      "the functions above it take phones (libphonenumber's code, 82 KiB), or are the cases' functions (the case service and the three catalogues) or the workspace's admin pages: what a function adds is mostly V8 compiling its bundle, so it is as fast as the code it holds is small; runs on a busy machine move a function by ±0.03 (CPU time)",
  },
  { table: 'Cold-start proxy', column: 'size ÷ floor', atMost: 2, ifMissed: 'a dependency grew a bundle' },
  {
    table: 'Lighthouse',
    column: 'performance',
    row: '/docs',
    atLeast: 90,
    ifMissed: 'the reference page grew, or loads a script before it shows: it should be plain HTML, compressed',
  },
  {
    table: 'Lighthouse',
    column: 'performance',
    row: '/results',
    atLeast: 90,
    ifMissed: 'the results page loads more before it shows (Chart.js is loaded with it, compressed)',
  },
  {
    table: 'Lighthouse',
    column: 'performance',
    row: '/s/{token}',
    atLeast: 100,
    ifMissed: 'the survey page grew or loads something before it shows: it is one inline sheet and no script',
  },
  {
    table: 'Lighthouse',
    column: 'accessibility',
    row: '/s/{token}',
    atLeast: 100,
    ifMissed: 'see the page in the browser tests (axe-core and HTML_CodeSniffer find what Lighthouse does)',
  },
  {
    table: 'How cost grows',
    column: 'growth',
    atMost: 1.5,
    ifMissed: 'an operation that reads more as the tenant grows is a bug: see the table',
  },
];

interface Table {
  title: string;
  header: string[];
  rows: string[][];
}

function parse(table: string): Table | undefined {
  const lines = table.split('\n');
  const title = (lines.find((line) => line.startsWith('### ')) ?? '### ?').slice(4).replace(/\s*\(.*$/, '');
  const headerAt = lines.findIndex((line) => line.startsWith('|'));
  if (headerAt < 0) return undefined;
  // The first table only: a section's later tables (the scale's index partitions) have headers of their own.
  const after = lines.slice(headerAt + 2);
  const end = after.findIndex((line) => !line.startsWith('|'));
  const rows = (end < 0 ? after : after.slice(0, end)).map(cells);
  return { title, header: cells(lines[headerAt]!), rows };
}

const measuredRows = (rows: string[][]) => rows.filter((row) => !/^(floor|\*\*)/.test(row[0] ?? ''));

/** Whether each target of a table is met, with the row that is worst for it. */
const targetsOf = (table: Table): string[] => judged(table).map(({ line }) => line);

/** Each target of a table with a figure, met or not, and its line. */
function judged({ title, header, rows }: Table): { target: Target; met: boolean; line: string }[] {
  return TARGETS.filter((target) => title.startsWith(target.table)).flatMap((target) => {
    const column = header.indexOf(target.column);
    const chosen = target.row ? rows.filter((row) => row[0] === target.row) : measuredRows(rows);
    const values = chosen
      .map((row) => ({ row: row[0]!.replace(/\*/g, ''), value: number(row[column] ?? '') }))
      .filter((v) => Number.isFinite(v.value));
    if (column < 0 || !values.length) return [];
    const worst = values.reduce((a, b) => (target.atLeast !== undefined ? (b.value < a.value ? b : a) : b.value > a.value ? b : a));
    const met = target.atLeast !== undefined ? worst.value >= target.atLeast : worst.value <= target.atMost!;
    const bound = target.atLeast !== undefined ? `≥ ${target.atLeast}` : `≤ ${target.atMost}`;
    const name = target.row ? `${target.row.replace(/\*/g, '')} ${target.column}` : target.column;
    const where = values.length > 1 ? `${worst.row} ${worst.value}` : `${worst.value}`;
    const line = met ? `${name} ${bound}: **met** (worst ${where})` : `${name} ${bound}: **missed** (worst ${where}): ${target.ifMissed}`;
    return [{ target, met, line }];
  });
}

/**
 * The gating targets (`gate`) that the tables of a run miss, each as its summary line: `npm run bench` exits non-zero
 * when there is one. A gating target whose table is in the run but whose figure cannot be read is missed too.
 */
export function missedGates(tables: string[]): string[] {
  return tables
    .flatMap((text) => tablesOf(`\n${text}`))
    .flatMap((text) => {
      const table = parse(text);
      if (!table) return [];
      const results = judged(table);
      const unread = TARGETS.filter((t) => t.gate && table.title.startsWith(t.table) && !results.some((r) => r.target === t));
      return [
        ...results.filter((r) => r.target.gate && !r.met).map((r) => `${table.title}: ${r.line}`),
        ...unread.map((t) => `${table.title}: ${`${t.row?.replace(/\*/g, '') ?? ''} ${t.column}`.trim()}: no figure to judge`),
      ];
    });
}

/** One markdown list line per table of `tables` (each a `### heading` followed by a pipe table), its targets beneath. */
export function summarise(tables: string[]): string[] {
  return tables.flatMap((text) => {
    const table = parse(text);
    if (!table) return [];
    const { title, header, rows } = table;
    const measured = measuredRows(rows);
    const facts = header.flatMap((name, column) => {
      if (!isRatioColumn(name) || !measured.length) return [];
      const values = measured.map((row) => ({ row: row[0]!, value: number(row[column] ?? '') })).filter((v) => Number.isFinite(v.value));
      if (!values.length) return [];
      const [min, max] = [Math.min(...values.map((v) => v.value)), Math.max(...values.map((v) => v.value))];
      const highest = values.find((v) => v.value === max)!;
      const range = min === max ? min.toFixed(2) : `${min.toFixed(2)} to ${max.toFixed(2)} (highest: ${highest.row})`;
      // A bare `ratio` column follows its figure and that figure's floor.
      const label = name === 'ratio' && header[column - 1]?.startsWith('floor') ? `${header[column - 2]} ÷ floor` : name;
      return [`${label} ${range}`];
    });
    const total = rows.find((row) => row[0] === '**total**');
    if (total) facts.push(`total ${total[2]!.replace(/\*/g, '')} per million`);
    const targets = targetsOf(table);
    return facts.length || targets.length
      ? [`- **${title}**: ${facts.join('; ')}`, ...targets.map((target) => `  - target ${target}`)]
      : [];
  });
}

/** The tables of a report written by bench/run.ts (split at its `### ` headings). */
export const tablesOf = (report: string): string[] => report.split(/\n(?=### )/).filter((part) => part.startsWith('### '));

export const BLOCK_BEGIN = '<!-- bench:begin (written by npm run bench) -->';
export const BLOCK_END = '<!-- bench:end -->';

export const V2_BLOCK_BEGIN = '<!-- bench:v2:begin (written by npm run bench -- cost) -->';
export const V2_BLOCK_END = '<!-- bench:v2:end -->';

/** `page` with what is between `beginMark` and `endMark` replaced by `block`. */
function replaceBlock(page: string, beginMark: string, endMark: string, block: string): string {
  const [begin, end] = [page.indexOf(beginMark), page.indexOf(endMark)];
  if (begin < 0 || end < begin) throw new Error(`docs/performance.md has no ${beginMark} … ${endMark} block`);
  return `${page.slice(0, begin + beginMark.length)}\n${block}\n${page.slice(end)}`;
}

/**
 * docs/performance.md with its v2 block replaced by the run's line and the end-to-end table of a v2 transaction (its
 * first table and what follows it up to the channels' prices), so that the page's figures are the last run's.
 */
export function v2CostBlock(page: string, runLine: string, endToEnd: string): string {
  const [title, ...rest] = endToEnd.split('\n');
  const upToChannels = rest
    .join('\n')
    .split(/\n(?=Each survey then sent)/)[0]!
    .trim();
  return replaceBlock(page, V2_BLOCK_BEGIN, V2_BLOCK_END, [`**${title!.replace(/^### /, '')}**, ${runLine}:`, '', upToChannels].join('\n'));
}

/** docs/performance.md with its benchmark block replaced by the run's line and the headline of each table. */
export function performanceBlock(page: string, runLine: string, tables: string[]): string {
  const block = [
    `Latest run: ${runLine}. Headline ratios (each figure over its floor); every table in full, with its floors and`,
    'their arguments, is in [`bench/results/latest.md`](../bench/results/latest.md).',
    '',
    // A section may hold several tables, each under its own heading (the secrets before the cold-start proxy).
    ...summarise(tables.flatMap((table) => tablesOf(`\n${table}`))),
  ].join('\n');
  return replaceBlock(page, BLOCK_BEGIN, BLOCK_END, block);
}
