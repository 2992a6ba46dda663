import { existsSync, readFileSync } from 'node:fs';
import { Linter } from 'eslint';
import ts from 'typescript';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
// eslint.config.js is plain JavaScript: its ratchet list read as what it is, a list of paths.
const config = (await import(`${root}eslint.config.js`)) as { MAX_PARAMS_SPARED: string[] };
const spared = config.MAX_PARAMS_SPARED;

/** The lines where the lint rule itself reports a function of more than 3 positional parameters. */
function reportedByLint(file: string, text: string): number[] {
  const linter = new Linter({ configType: 'flat' });
  const rules: Linter.RulesRecord = { '@typescript-eslint/max-params': ['error', { max: 3 }] };
  const plugins = { '@typescript-eslint': tseslint.plugin as never };
  return linter
    .verify(text, [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, plugins, rules }], file)
    .map((m) => m.line);
}

/**
 * The same lines found by walking TypeScript's syntax tree: what the rule checks (functions, arrows, methods,
 * constructors, accessors, declared functions and function types; a `this: void` parameter not counted), six times faster
 * than the linter over the hundred files of the list.
 */
function longListsIn(file: string, text = readFileSync(`${root}${file}`, 'utf8')): number[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lines: number[] = [];
  const visit = (node: ts.Node) => {
    const checked =
      ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isAccessor(node) ||
      ts.isFunctionTypeNode(node);
    const voidThis = (p: ts.ParameterDeclaration) =>
      ts.isIdentifier(p.name) && p.name.text === 'this' && p.type?.kind === ts.SyntaxKind.VoidKeyword;
    // The rule reports an arrow function where its arrow is (a long list written over several lines ends above it).
    const at = ts.isArrowFunction(node) ? node.equalsGreaterThanToken.getStart() : node.getStart();
    if (checked && node.parameters.filter((p) => !voidThis(p)).length > 3) lines.push(source.getLineAndCharacterOfPosition(at).line + 1);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}

describe('the max-params ratchet (eslint.config.js, MAX_PARAMS_SPARED)', () => {
  it('lists existing files of shared/, sorted, once each', () => {
    expect(spared.filter((file) => !file.startsWith('shared/') || !existsSync(`${root}${file}`))).toEqual([]);
    expect(spared).toEqual([...new Set(spared)].sort());
  });

  it('spares only files that still need it: take a file off the list once its functions take records', () => {
    expect(spared.filter((file) => longListsIn(file).length === 0)).toEqual([]);
  });

  it('finds what the lint rule finds: a fourth positional parameter in each kind of function, and not a record', () => {
    const file = 'shared/example.ts';
    const text = [
      'export function f(a: number, b: number, c: number, d: number) { return a + b + c + d; }',
      'export const g = (a: number, b: number, { c, d }: { c: number; d: number }) => a + b + c + d;',
      'export const h = (a: number, b: number, c: number, d: number) => a + b + c + d;',
      'export class K { m(a: number, b: number, c: number, d: number) { return a + b + c + d; } }',
      'export type T = (a: number, b: number, c: number, d: number) => void;',
      'export function t(this: void, a: number, b: number, c: number) { return a + b + c; }',
      'export function u(this: unknown, a: number, b: number, c: number) { return a + b + c; }',
      'export interface P { port(a: number, b: number, c: number, d: number): void }',
    ].join('\n');
    expect(reportedByLint(file, text)).toEqual([1, 3, 4, 5, 7]);
    expect(longListsIn(file, text)).toEqual(reportedByLint(file, text));
  });

  it('finds what the lint rule finds in three files of the list', { timeout: 120_000 }, () => {
    // The linter is the reference, the walk the fast check above: three files spread over the list keep this short.
    for (const file of spared.filter((_, i) => i % Math.ceil(spared.length / 3) === 0)) {
      const text = readFileSync(`${root}${file}`, 'utf8');
      expect(longListsIn(file, text), file).toEqual(reportedByLint(file, text));
    }
  });
});
