import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_SUBJECT, subjectsToCheck, tooLong } from '../../infra/check-commits.js';

const repo = mkdtempSync(join(tmpdir(), 'check-commits-'));
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();
const commit = (subject: string) => {
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', subject, '-m', 'the body');
  return git('rev-parse', 'HEAD');
};
git('init', '-q');
const long = `Refuse ${'a very long subject '.repeat(5)}`;
const base = commit(long);
commit(`Bound the results plan by a count of months`);
commit(long.slice(0, MAX_SUBJECT + 1));
afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe('the commit subject check', () => {
  it('refuses a subject of 73 characters and takes one of 72, counting characters, not bytes', () => {
    expect(tooLong(['x'.repeat(72), 'ç'.repeat(72)])).toEqual([]);
    expect(tooLong(['x'.repeat(73)])).toEqual([`73: ${'x'.repeat(73)}`]);
  });

  it('judges only the commits after the base, leaving the older ones as they are', () => {
    const subjects = subjectsToCheck(repo, base);
    expect(subjects).toEqual([long.slice(0, MAX_SUBJECT + 1), 'Bound the results plan by a count of months']);
    expect(tooLong(subjects)).toHaveLength(1);
  });

  it("judges HEAD's subject alone in a clone that does not hold the base (a shallow one)", () => {
    expect(subjectsToCheck(repo, '0123456789abcdef0123456789abcdef01234567')).toEqual([long.slice(0, MAX_SUBJECT + 1)]);
  });
});
