import { execFileSync } from 'node:child_process';

/**
 * `.ci/run` refuses a commit whose subject is longer than 72 characters, so that `git log --oneline` can be read.
 * Only commits after BASE are judged: the ones on main before the rule came are left as they are.
 */
export const MAX_SUBJECT = 72;
export const BASE = '7013da2';

/** The subjects longer than the limit, each with its length. */
export const tooLong = (subjects: readonly string[]): string[] =>
  subjects.filter((subject) => [...subject].length > MAX_SUBJECT).map((subject) => `${[...subject].length}: ${subject}`);

const git = (args: string[], cwd?: string) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

/** The subjects of the commits after `base`; in a clone that does not hold it (a shallow one), HEAD's alone. */
export function subjectsToCheck(cwd?: string, base = BASE): string[] {
  let range = [`${base}..HEAD`];
  try {
    git(['cat-file', '-e', `${base}^{commit}`], cwd);
  } catch {
    range = ['-1', 'HEAD'];
  }
  return git(['log', '--format=%s', ...range], cwd)
    .split('\n')
    .filter((line) => line !== '');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const refused = tooLong(subjectsToCheck());
  if (refused.length) {
    console.error(`Commit subjects longer than ${MAX_SUBJECT} characters (put the detail in the body):\n${refused.join('\n')}`);
    process.exit(1);
  }
  console.log(`commit subjects: ok (at most ${MAX_SUBJECT} characters)`);
}
