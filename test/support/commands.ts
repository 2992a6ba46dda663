import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/**
 * Runs one of the project's commands (`infra/admin.ts`, `infra/analytics.ts`) as `npm run admin --` does, with the
 * test's environment unless given another: Node with tsx's loader in one process, where `npx tsx` starts npm, then
 * tsx, then the script (about 2 s of CPU more a call on this machine, dozens of calls a run).
 */
export const command = (script: string, args: string[], env: NodeJS.ProcessEnv = { ...process.env }) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', script, ...args], { env });
