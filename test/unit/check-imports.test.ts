import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CODE_MAP, importGraph, importsOf, layersOf, problemsOf, type ImportGraph } from '../../infra/check-imports.js';

const root = new URL('../../', import.meta.url).pathname;
const layers = layersOf(readFileSync(`${root}${CODE_MAP}`, 'utf8'));
const graph = importGraph(root);

/** The project's graph with one more import, as a file's text would state it. */
function withImport(file: string, statement: string): ImportGraph {
  const added = importsOf(file, statement, (path) => graph.has(path));
  expect(added).toHaveLength(1);
  return new Map([...graph, [file, [...(graph.get(file) ?? []), ...added]]]);
}

describe('import cycles (npm run lint: infra/check-imports.ts)', () => {
  it('finds none, and every import between concept folders goes down the rows of the code map', () => {
    expect(layers.flat()).toEqual(expect.arrayContaining(['tenants', 'settings', 'results', 'cases']));
    expect(graph.size).toBeGreaterThan(500);
    expect(problemsOf(graph, layers)).toEqual([]);
  });

  it('refuses a type-only import back up into the configuration', () => {
    const problems = problemsOf(
      withImport('shared/cases/rules.ts', "import type { TenantFile } from '../tenants/config-schema.js';"),
      layers,
    );
    expect(problems).toContainEqual(expect.stringMatching(/^import cycle between concept folders of shared\/: .*cases.*tenants/));
    expect(problems).toContain(
      'shared/cases/rules.ts imports shared/tenants/config-schema.ts: shared/tenants/ is not on a row below shared/cases/ in docs/code-map.md',
    );
  });

  it('refuses an import of a folder on the same row, cycle or not', () => {
    const problems = problemsOf(withImport('shared/surveys/plan.ts', "export { MAX_THEMES } from '../themes/theme.js';"), layers);
    expect(problems).toEqual([
      'shared/surveys/plan.ts imports shared/themes/theme.ts: shared/themes/ is not on a row below shared/surveys/ in docs/code-map.md',
    ]);
  });

  it('refuses a cycle between two files of one folder', () => {
    const problems = problemsOf(withImport('shared/results/ranking.ts', "import type { Estimate } from './report.js';"), layers);
    expect(problems).toEqual(['import cycle between files: shared/results/ranking.ts shared/results/report.ts']);
  });

  it('refuses a folder the picture leaves out', () => {
    const moved = new Map([...graph, ['shared/in-between/thing.ts', ['shared/locale.ts']]]);
    expect(problemsOf(moved, layers)).toEqual(['shared/in-between/ is not in the picture of docs/code-map.md: give it a row']);
  });
});
