import { existsSync, readFileSync } from 'node:fs';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
// eslint.config.js is plain JavaScript: its ratchet list read as what it is, a list of paths.
const config = (await import(`${root}eslint.config.js`)) as { MAX_PARAMS_SPARED: string[] };
const spared = config.MAX_PARAMS_SPARED;

/** The functions of a file that take more than 3 positional parameters, as the lint rule reports them. */
function longListsIn(file: string, text = readFileSync(`${root}${file}`, 'utf8')): string[] {
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    text,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { '@typescript-eslint': tseslint.plugin as never },
        rules: { '@typescript-eslint/max-params': ['error', { max: 3 }] },
      },
    ],
    file,
  );
  return messages.map((message) => `${file}:${message.line} ${message.message}`);
}

describe('the max-params ratchet (eslint.config.js, MAX_PARAMS_SPARED)', () => {
  it('lists existing files of shared/, sorted, once each', () => {
    expect(spared.filter((file) => !file.startsWith('shared/') || !existsSync(`${root}${file}`))).toEqual([]);
    expect(spared).toEqual([...new Set(spared)].sort());
  });

  it('spares only files that still need it: take a file off the list once its functions take records', () => {
    expect(spared.filter((file) => longListsIn(file).length === 0)).toEqual([]);
  });

  it('finds a fourth positional parameter, and not a record', () => {
    const file = 'shared/example.ts';
    expect(longListsIn(file, 'export function f(a: number, b: number, c: number, d: number) { return a + b + c + d; }')).toEqual([
      `${file}:1 Function 'f' has too many parameters (4). Maximum allowed is 3.`,
    ]);
    expect(longListsIn(file, 'export const f = (a: number, b: number, { c, d }: { c: number; d: number }) => a + b + c + d;')).toEqual([]);
  });
});
