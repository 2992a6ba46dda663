import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { referencePaths, routes } from '../../infra/routes.js';
import { DispatchMessage } from '../../shared/surveys/dispatch.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('the README', () => {
  it('lists every route of the route table, with its alias', () => {
    for (const route of routes) {
      const [canonical, ...aliases] = route.paths;
      const row = readme.split('\n').find((line) => line.startsWith(`| ${route.method} | \`${canonical}\``));
      expect(row, `${route.method} ${canonical}`).toBeDefined();
      expect(row).toContain(route.operationId);
      for (const alias of aliases) expect(row).toContain(`\`${alias}\``);
    }
  });

  it('lists the pages each API serves beside its operations (the document, /docs, its assets, /results)', () => {
    for (const path of new Set([...referencePaths('public'), ...referencePaths('chatbot')]))
      expect(
        readme.split('\n').some((line) => line.startsWith(`| GET | \`${path}\``)),
        path,
      ).toBe(true);
  });

  it('maps every folder of shared/, infra/ and test/', () => {
    const map = readme.slice(readme.indexOf('Where to find things'), readme.indexOf('## Endpoints'));
    for (const top of ['shared', 'infra', 'test'])
      for (const entry of readdirSync(new URL(`../../${top}/`, import.meta.url), { withFileTypes: true }))
        if (entry.isDirectory()) expect(map, `${top}/${entry.name}/`).toContain(`${top}/${entry.name}/`);
  });

  it('shows the dispatch message the code sends, which names the attempt and carries no contact or token', () => {
    const section = readme.slice(readme.indexOf('Each scheduled survey puts one message on SurveyDispatchQueue'));
    const example = JSON.parse(/```json\n([\s\S]*?)```/.exec(section)![1]!) as Record<string, unknown>;
    expect(Object.keys(example).sort()).toEqual(Object.keys(DispatchMessage.entries).sort());
    expect(v.safeParse(DispatchMessage, example).success).toBe(true);
  });

  it('shows the two commands', () => {
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm test');
  });
});
