import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest on CI, longest first (seconds in the last full run, 2026-11-27). Without a cache of
 * earlier runs (a fresh clone) vitest starts the largest files first, and these are small: they started last, and the run waited on them with one worker idle (a minute of reminders alone). Started
 * first, they overlap with the rest; the two that Scan the table for their snapshots also scan it while it is small.
 */
const LONGEST_FIRST = [
  'test/reliability/bad-input.test.ts', // 143
  'test/bench/smoke.test.ts', // 63
  'test/e2e/reminders.test.ts', // 61, mostly waiting a minute for the queue's delay
  'test/reliability/isolation.test.ts', // 59
  'test/integration/survey-attempts.test.ts', // 59
  'test/e2e/workspace-admin-browser.test.ts', // 52
  'test/e2e/workspace-languages-browser.test.ts', // 86, before it saw two languages at one width each
  'test/integration/theme-answers.test.ts', // 43
  'test/integration/tenants.test.ts', // 34
  'test/e2e/themes-browser.test.ts', // 32
  'test/e2e/survey-languages-browser.test.ts', // 32
  'test/e2e/in-store-browser.test.ts', // 31
  'test/e2e/docs-browser.test.ts', // 27
  'test/e2e/workspace-browser.test.ts', // 26
  'test/integration/workspace-admin.test.ts', // 25
  'test/e2e/runtime-bundles.test.ts', // 23 once the bundles are built (it waits for the one build otherwise)
];

const rank = (spec: TestSpecification) => {
  const at = LONGEST_FIRST.findIndex((file) => spec.moduleId.endsWith(file));
  return at === -1 ? LONGEST_FIRST.length : at;
};

/** Vitest's own order (projects in turn, failed and longer first when it has a cache), the longest known files first. */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const byProject = new Map<string, TestSpecification[]>();
    for (const spec of await super.sort(files)) byProject.set(spec.project.name, [...(byProject.get(spec.project.name) ?? []), spec]);
    // Array.prototype.sort is stable: the other files keep vitest's order.
    return [...byProject.values()].flatMap((specs) => specs.sort((a, b) => rank(a) - rank(b)));
  }
}
