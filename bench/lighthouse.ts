import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';

/**
 * Lighthouse's performance score for the pages people open, as its mobile preset measures them (a mid-range phone:
 * slow 4G, the CPU slowed four times), the median of `runs`, beside the floor of 90 each page a person reads must
 * reach. Swagger UI (the console /docs links to, for trying requests) is measured too, with no floor: 1.4 MB of
 * script to run is what /docs no longer loads. Lighthouse needs Node 22: npx runs it with the npm package node@22,
 * against Debian's chromium. The survey page (a link with a score chosen, as a tapped e-mail button opens it) has to
 * stay at 100.
 */
const run = promisify(execFile);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLOOR = 90;

export interface LighthousePage {
  path: string;
  /** How the report names it (a survey link's token changes every run). */
  label?: string;
  floor?: number;
}

export const LIGHTHOUSE_PAGES: LighthousePage[] = [
  { path: '/docs', floor: FLOOR },
  { path: '/results', floor: FLOOR },
  { path: '/assets/console.html' },
];

interface Report {
  categories: { performance: { score: number }; accessibility: { score: number } };
  audits: Record<string, { numericValue?: number }>;
}

async function measure(url: string): Promise<Report> {
  // Asynchronous: the local stack that answers the page runs in this very process.
  const { stdout } = await run(
    'npx',
    [
      '--yes',
      '-p',
      'node@22',
      '-p',
      'lighthouse@13',
      'lighthouse',
      url,
      '--only-categories=performance,accessibility',
      '--output=json',
      '--output-path=stdout',
      '--quiet',
      '--chrome-flags=--headless=new --no-sandbox',
    ],
    { env: { ...process.env, CHROME_PATH: CHROMIUM }, maxBuffer: 64 * 1024 * 1024, timeout: 180_000 },
  );
  return JSON.parse(stdout) as Report;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function lighthouse(
  baseUrl: string,
  { runs = 3, pages = LIGHTHOUSE_PAGES }: { runs?: number; pages?: LighthousePage[] } = {},
): Promise<string> {
  const title = `### Lighthouse, mobile (median of ${runs})`;
  if (!existsSync(CHROMIUM)) return `${title}\n\nNot measured: no chromium at ${CHROMIUM} (apt-get install chromium).`;
  const rows: string[] = [];
  for (const page of pages) {
    const reports: Report[] = [];
    for (let i = 0; i < runs; i++) reports.push(await measure(`${baseUrl}${page.path}`));
    const audit = (name: string) => median(reports.map((r) => r.audits[name]?.numericValue ?? NaN));
    const score = median(reports.map((r) => Math.round(r.categories.performance.score * 100)));
    const accessibility = median(reports.map((r) => Math.round(r.categories.accessibility.score * 100)));
    rows.push(
      `| ${page.label ?? page.path} | ${score} | ${page.floor ?? '—'} | ${accessibility} | ${(audit('first-contentful-paint') / 1000).toFixed(1)} s | ${(
        audit('largest-contentful-paint') / 1000
      ).toFixed(1)} s | ${Math.round(audit('total-blocking-time'))} ms | ${audit('cumulative-layout-shift').toFixed(2)} | ${Math.round(
        audit('total-byte-weight') / 1024,
      )} KiB |`,
    );
  }
  return [
    title,
    '',
    'Performance score (0-100) with its floor, and the accessibility score; first and largest contentful paint, total blocking time and layout shift as',
    'Lighthouse simulates them on its mobile preset; the bytes transferred (compressed).',
    '',
    '| page | performance | floor | accessibility | FCP | LCP | TBT | CLS | transferred |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
