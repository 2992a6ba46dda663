import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest on CI, longest first (seconds in full runs, 2026-11-27; the newest files estimated from
 * runs alone). Without a cache of earlier runs (a fresh clone) vitest starts the largest files first, and these are
 * small: they started last, and the run waited on them with one worker idle (a minute of reminders alone). Started
 * first, they overlap with the rest; the two that Scan the table for their snapshots also scan it while it is small.
 */
const LONGEST_FIRST = [
  'test/reliability/bad-input.test.ts', // 61 to 131
  'test/reliability/isolation.test.ts', // 60
  'test/e2e/runtime-bundles.test.ts', // 87 to 107, before its bundling took one build
  'test/bench/smoke.test.ts', // 71
  'test/e2e/workspace-admin-browser.test.ts', // 58, and the regions page since
  'test/e2e/reminders.test.ts', // 62, mostly waiting a minute for the queue's delay
  'test/e2e/workspace-cases-browser.test.ts', // 60
  'test/e2e/workspace-languages-browser.test.ts', // 58
  'test/e2e/themes-browser.test.ts', // about 50
  'test/integration/theme-answers.test.ts', // 60 to 113, before its comments were made cheap to analyse
  'test/infra/bundles.test.ts', // 58, before one build
  'test/integration/employees.test.ts', // 47
  'test/e2e/survey-languages-browser.test.ts', // 43
  'test/integration/tenants.test.ts', // 42
  'test/e2e/digests-browser.test.ts', // about 35
  'test/integration/survey-attempts.test.ts', // 31
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
