import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { chromium, type Page } from 'playwright-core';

/**
 * What every browser test shares: Debian's chromium, launched one way, and axe-core. Its headless shell where it is
 * installed (`.ci/run` installs it): the same Blink without the desktop browser around it, and the tests' pages took
 * 41% less time in it (workspace-browser: 26 s against 44, 53 CPU-seconds against 66 with the stack's start).
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
export const hasChromium = existsSync(CHROMIUM);

/**
 * A browser test's limit: each drives pages and runs axe-core, several seconds apiece when CI's other tiers, lint and
 * synth share the two cores (load 7-20), and two to three times that beside a CPU-bound process. Two minutes: a test
 * that walks four pages at two widths took 24-48 s in CI runs here, and ran out a one-minute limit once. Tests that
 * walk many pages set a longer one of their own.
 */
export const BROWSER_TEST_TIMEOUT = 120_000;

/** Chromium as every browser test launches it (in a container, without its sandbox). */
export const launchChromium = () => chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });

const resolve = createRequire(import.meta.url).resolve;
/** The checkers a browser test injects into a page: axe-core, and HTML_CodeSniffer (pa11y's runner). */
const CHECKERS = {
  'axe.min.js': readFileSync(resolve('axe-core/axe.min.js'), 'utf8'),
  'HTMLCS.js': readFileSync(resolve('html_codesniffer/build/HTMLCS.js'), 'utf8'),
};

/**
 * The checkers served by URL from this worker, cacheable: a context compiles each once and takes it from V8's code
 * cache on every later page (about 0.1 s), where a script tag with the 550 kB inline is parsed and compiled again on
 * each page (1-2 s on CI's loaded cores, most of an accessibility run). The context must bypass the page's CSP.
 */
let origin: Promise<string> | undefined;
let servedFrom: string | undefined;
const served = () =>
  (origin ??= new Promise((resolve) => {
    const server = createServer((request, response) => {
      const script = CHECKERS[request.url?.slice(1) as keyof typeof CHECKERS];
      response.writeHead(script ? 200 : 404, { 'content-type': 'text/javascript', 'cache-control': 'public, max-age=86400' });
      response.end(script ?? '');
    });
    server.unref();
    server.listen(0, '127.0.0.1', () => {
      servedFrom = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve(servedFrom);
    });
  }));

/** Whether a page's request is a test's own checker being injected (not the page loading something elsewhere). */
export const isChecker = (url: string): boolean => servedFrom !== undefined && url.startsWith(`${servedFrom}/`);

/** Puts a checker into the page, as a script by URL. */
export async function injectChecker(page: Page, checker: keyof typeof CHECKERS): Promise<void> {
  await page.addScriptTag({ url: `${await served()}/${checker}` });
}
/**
 * axe-core's run options: every rule, but only the violations gathered in full (what passes, is incomplete or does
 * not apply is not collected node by node: the run's most costly part, and nothing a test reads).
 */
export const AXE_OPTIONS = { resultTypes: ['violations'] };

/**
 * axe-core's violations on the page, as `rule (impact, nodes)`; the context must bypass the page's CSP to inject it.
 * `serious`: only the serious and critical ones. `skip`: rules turned off, each with its reason at the caller.
 */
export async function axe(page: Page, { serious = false, skip = [] as string[] } = {}): Promise<string[]> {
  await injectChecker(page, 'axe.min.js');
  const options = { ...AXE_OPTIONS, rules: Object.fromEntries(skip.map((rule) => [rule, { enabled: false }])) };
  const results = (await page.evaluate(
    // One argument: axe reads an object that names no element as its options, the whole document as its context.
    (options) => (globalThis as unknown as { axe: { run(options: unknown): Promise<unknown> } }).axe.run(options),
    options,
  )) as { violations: { id: string; impact: string; nodes: unknown[] }[] };
  return results.violations
    .filter((v) => !serious || v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`);
}
