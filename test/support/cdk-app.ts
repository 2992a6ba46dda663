import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { afterAll } from 'vitest';
import { removeStagedCode } from '../../infra/constructs/service-function.js';

/**
 * The file's apps write their cloud assemblies under one temporary directory, removed when the file ends with the
 * functions' staged code: an app without `outdir` makes a `cdk.out*` directory in /tmp as it is constructed, and the
 * test workers are stopped before their exit handlers run.
 */
const assemblies = mkdtempSync(join(tmpdir(), 'survey-service-cdk-test-'));
afterAll(() => {
  rmSync(assemblies, { recursive: true, force: true });
  removeStagedCode();
});
let made = 0;

/**
 * An app with `context`, synthesised without bundling (only the template matters here; bundling is exercised by
 * `npx cdk synth` and the bundle tests), into a directory of its own that the file removes.
 */
export const testApp = (context: Record<string, unknown> = {}) =>
  new App({ context: { 'aws:cdk:bundling-stacks': [], ...context }, outdir: join(assemblies, String(made++)) });
