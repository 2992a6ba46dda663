import { readdirSync, readFileSync } from 'node:fs';
import { ESLint, Linter } from 'eslint';
import ts from 'typescript';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
/** Every TypeScript file of shared/, and its folders (shared/ itself first), as paths from the root. */
const files = readdirSync(`${root}shared`, { recursive: true, encoding: 'utf8' })
  .filter((path) => path.endsWith('.ts'))
  .map((path) => `shared/${path}`)
  .sort();
const folders = [...new Set(['shared', ...files.map((file) => file.slice(0, file.lastIndexOf('/')))])];

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
 * constructors, accessors, declared functions and function types; a `this: void` parameter not counted), many times
 * faster than the linter over every file of shared/, and blind to an eslint-disable comment.
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

describe('at most 3 positional parameters in shared/ (issue 61)', () => {
  it('no function of shared/ takes more: a longer list takes a record', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files.flatMap((file) => longListsIn(file).map((line) => `${file}:${line}`))).toEqual([]);
  });

  it('lint refuses a function of 4 positional parameters in a new file of every folder of shared/, none spared', async () => {
    const eslint = new ESLint({ cwd: root });
    const text = 'export function f(a: number, b: number, c: number, d: number) {\n  return a + b + c + d;\n}\n';
    const refused: string[] = [];
    for (const folder of folders) {
      const [result] = await eslint.lintText(text, { filePath: `${root}${folder}/added-by-a-test.ts` });
      if (result!.messages.some((m) => m.ruleId === '@typescript-eslint/max-params' && m.severity === 2)) refused.push(folder);
    }
    expect(refused).toEqual(folders);
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
});
