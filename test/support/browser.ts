import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Page } from 'playwright-core';

/** What every browser test shares: Debian's chromium, launched one way, and axe-core. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/**
 * A browser test's limit: each drives pages and runs axe-core, several seconds apiece when CI's other tiers, lint and
 * synth share the two cores (load 7-9), and two to three times that beside a CPU-bound process. Tests that walk many
 * pages set a longer one of their own.
 */
export const BROWSER_TEST_TIMEOUT = 60_000;

/** Chromium as every browser test launches it (in a container, without its sandbox). */
export const launchChromium = () => chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });

export const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
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
  await page.addScriptTag({ content: AXE });
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
