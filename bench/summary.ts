/**
 * The README's short form of a benchmark report: for each table, the range of its ratio columns (each figure over
 * its floor) and its total, with the row that is worst. The full tables stay in bench/results/latest.md.
 */

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim());

const isRatioColumn = (header: string) => /\bratio\b|÷ floor/.test(header);
const number = (cell: string) => Number(cell.replace(/[^0-9.-]/g, ''));

/** One markdown list line per table of `tables` (each a `### heading` followed by a pipe table). */
export function summarise(tables: string[]): string[] {
  return tables.flatMap((table) => {
    const lines = table.split('\n');
    const title = (lines.find((line) => line.startsWith('### ')) ?? '### ?').slice(4).replace(/\s*\(.*$/, '');
    const headerAt = lines.findIndex((line) => line.startsWith('|'));
    if (headerAt < 0) return [];
    const header = cells(lines[headerAt]!);
    const rows = lines
      .slice(headerAt + 2)
      .filter((line) => line.startsWith('|'))
      .map(cells);
    const measured = rows.filter((row) => !/^(floor|\*\*)/.test(row[0] ?? ''));
    const facts = header.flatMap((name, column) => {
      if (!isRatioColumn(name) || !measured.length) return [];
      const values = measured.map((row) => ({ row: row[0]!, value: number(row[column] ?? '') })).filter((v) => Number.isFinite(v.value));
      if (!values.length) return [];
      const worst = values.reduce((a, b) => (Math.abs(Math.log(b.value || 1)) > Math.abs(Math.log(a.value || 1)) ? b : a));
      const [min, max] = [Math.min(...values.map((v) => v.value)), Math.max(...values.map((v) => v.value))];
      const range = min === max ? min.toFixed(2) : `${min.toFixed(2)} to ${max.toFixed(2)}`;
      // A bare `ratio` column follows its figure and that figure's floor.
      const label = name === 'ratio' && header[column - 1] === 'floor' ? `${header[column - 2]} ÷ floor` : name;
      return [`${label} ${range}${values.length > 1 && min !== max ? ` (furthest from 1: ${worst.row}, ${worst.value.toFixed(2)})` : ''}`];
    });
    const total = rows.find((row) => row[0] === '**total**');
    if (total) facts.push(`total ${total[total.length - 1]!.replace(/\*/g, '')} per million`);
    return facts.length ? [`- **${title}**: ${facts.join('; ')}`] : [];
  });
}

/** The tables of a report written by bench/run.ts (split at its `### ` headings). */
export const tablesOf = (report: string): string[] => report.split(/\n(?=### )/).filter((part) => part.startsWith('### '));

const README_BEGIN = '<!-- bench:begin (written by npm run bench) -->';
const README_END = '<!-- bench:end -->';

/** The README with its benchmark block replaced by the run's line and the headline of each table. */
export function readmeBlock(readme: string, runLine: string, tables: string[]): string {
  const [begin, end] = [readme.indexOf(README_BEGIN), readme.indexOf(README_END)];
  if (begin < 0 || end < begin) throw new Error(`README.md has no ${README_BEGIN} … ${README_END} block`);
  const block = [
    `Latest run: ${runLine}. Headline ratios (each figure over its floor); every table in full, with its floors and`,
    'their arguments, is in [`bench/results/latest.md`](bench/results/latest.md).',
    '',
    ...summarise(tables),
  ].join('\n');
  return `${readme.slice(0, begin + README_BEGIN.length)}\n${block}\n${readme.slice(end)}`;
}
