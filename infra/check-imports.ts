import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * `npm run lint` refuses an import cycle: between files (type-only imports included: `import type` and `export ...
 * from` count as any import), and between the concept folders of shared/, whose allowed graph is the picture of
 * docs/code-map.md ("How the concept folders depend"): a folder imports only folders on rows below its own.
 */

/** The folders whose TypeScript is read, relative to the project's root. */
export const SOURCE_FOLDERS = ['shared', 'functions', 'infra', 'bench', 'test'];
/** The page whose picture of the concept folders' layers is the rule. */
export const CODE_MAP = 'docs/code-map.md';

/** Each file (its path from the root) and the project files it imports. */
export type ImportGraph = Map<string, string[]>;

function sourcesIn(root: string, folder: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.ts')) found.push(relative(root, path));
    }
  };
  if (existsSync(join(root, folder))) walk(join(root, folder));
  return found;
}

/** The relative imports of one file's text (static, dynamic, `import type`, `export ... from`), resolved to files. */
export function importsOf(file: string, text: string, exists: (path: string) => boolean): string[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => join(dirname(file), name).replace(/\.js$/, '.ts'))
    .filter(exists);
}

/** The project's import graph. */
export function importGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of SOURCE_FOLDERS.flatMap((folder) => sourcesIn(root, folder)))
    graph.set(
      file,
      importsOf(file, readFileSync(join(root, file), 'utf8'), (path) => existsSync(resolve(root, path))),
    );
  return graph;
}

/** The strongly connected components of more than one node, or of one that reaches itself (Tarjan's). */
export function cyclesOf(nodes: Iterable<string>, next: (node: string) => readonly string[]): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const other of next(node)) {
      if (!index.has(other)) {
        visit(other);
        low.set(node, Math.min(low.get(node)!, low.get(other)!));
      } else if (onStack.has(other)) low.set(node, Math.min(low.get(node)!, index.get(other)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let top: string;
    do {
      top = stack.pop()!;
      onStack.delete(top);
      component.push(top);
    } while (top !== node);
    if (component.length > 1 || next(node).includes(node)) cycles.push(component.sort());
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return cycles;
}

/** The concept folder of a file of shared/ (`shared/cases/rules.ts`: `cases`); undefined for any other file. */
export function conceptOf(file: string): string | undefined {
  const parts = file.split('/');
  return parts[0] === 'shared' && parts.length > 2 ? parts[1] : undefined;
}

/**
 * The graph's nodes at the folders' level: a concept folder of shared/ is one node, any other file its own, so that a
 * cycle through a file outside the folders (`shared/regions.ts`) is a cycle too.
 */
export function folderGraph(graph: ImportGraph): Map<string, Set<string>> {
  const node = (file: string) => conceptOf(file) ?? file;
  const folders = new Map<string, Set<string>>();
  for (const [file, imports] of graph) {
    const from = node(file);
    const edges = folders.get(from) ?? new Set<string>();
    folders.set(from, edges);
    for (const imported of imports) if (node(imported) !== from) edges.add(node(imported));
  }
  return folders;
}

/** The rows of the picture in the code map, top row first: each row the folders on it. */
export function layersOf(codeMap: string): string[][] {
  const picture = /<!-- folder layers -->\s*```text\n([\s\S]*?)```/.exec(codeMap);
  if (!picture) throw new Error(`${CODE_MAP} has no picture of the concept folders (<!-- folder layers --> and a text block)`);
  return picture[1]!
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => /^[a-z][a-z0-9-]*(\s+[a-z][a-z0-9-]*)*$/.test(line) && line !== 'v')
    .map((line) => line.split(/\s+/));
}

/** What breaks the rules, one line each: file cycles, folder cycles, and imports of a folder on the same row or above. */
export function problemsOf(graph: ImportGraph, layers: string[][]): string[] {
  const problems: string[] = [];
  for (const cycle of cyclesOf(graph.keys(), (file) => graph.get(file) ?? []))
    problems.push(`import cycle between files: ${cycle.join(' ')}`);
  const folders = folderGraph(graph);
  for (const cycle of cyclesOf(folders.keys(), (node) => [...(folders.get(node) ?? [])]))
    problems.push(`import cycle between concept folders of shared/: ${cycle.join(' ')}`);
  const row = new Map(layers.flatMap((names, i) => names.map((name) => [name, i] as const)));
  for (const [file, imports] of graph) {
    const from = conceptOf(file);
    if (from === undefined) continue;
    if (!row.has(from)) {
      problems.push(`shared/${from}/ is not in the picture of ${CODE_MAP}: give it a row`);
      row.set(from, -1);
    }
    for (const imported of imports) {
      const to = conceptOf(imported);
      if (to === undefined || to === from || !row.has(to)) continue;
      if (row.get(to)! <= row.get(from)!)
        problems.push(`${file} imports ${imported}: shared/${to}/ is not on a row below shared/${from}/ in ${CODE_MAP}`);
    }
  }
  return [...new Set(problems)];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.cwd();
  const problems = problemsOf(importGraph(root), layersOf(readFileSync(join(root, CODE_MAP), 'utf8')));
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) process.exit(1);
}
