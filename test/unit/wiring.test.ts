import { readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const WIRING = new URL('shared/adapters/wiring/', root);

/** The wiring modules, by name (`cases` for cases.ts). */
const modules = readdirSync(WIRING)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.replace(/\.ts$/, ''))
  .sort();

/** The concept folders of shared/ (the adapters' folder is the wiring's own, not a concept). */
const folders = readdirSync(new URL('shared/', root))
  .filter((name) => name !== 'adapters' && statSync(new URL(`shared/${name}`, root)).isDirectory())
  .sort();

/** The modules the README's list names, in its order. */
function listed(readme: string): string[] {
  const start = readme.indexOf('<!-- wiring modules -->');
  expect(start, 'the README marks its list of modules with <!-- wiring modules -->').toBeGreaterThanOrEqual(0);
  const list = readme.slice(start).split('\n\n')[0]!;
  return [...list.matchAll(/^- `([a-z-]+)\.ts`:/gm)].map(([, name]) => name!);
}

describe('the wiring modules (shared/adapters/wiring/)', () => {
  it('are each named exactly as a concept folder of shared/', () => {
    expect(modules.length).toBeGreaterThan(10);
    expect(modules.filter((name) => !folders.includes(name))).toEqual([]);
  });

  it("are exactly the README's list, in order", () => {
    const names = listed(readFileSync(new URL('README.md', WIRING), 'utf8'));
    expect(names).toEqual(modules);
  });

  it('a module named as no folder, or one the README leaves out, is found', () => {
    expect(['cases', 'tenant-access', 'surveys'].filter((name) => !folders.includes(name))).toEqual(['tenant-access']);
    expect(listed('# Wiring\n\n<!-- wiring modules -->\n- `cases.ts`: cases.\n- `surveys.ts`: surveys.\n\nAfter.')).toEqual([
      'cases',
      'surveys',
    ]);
  });
});
