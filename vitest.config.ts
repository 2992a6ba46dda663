import { defineConfig } from 'vitest/config';
import LongestFirst from './test/support/sequencer.js';

const env = {
  POWERTOOLS_LOG_LEVEL: 'SILENT',
  POWERTOOLS_METRICS_DISABLED: 'true',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

/**
 * The tiers without emulators run as on AWS whatever the stack tier's global setup puts in the run's environment
 * (it sets LOCAL_DEPLOYMENT): a test that wants the local stack's rules says so itself.
 */
const noStackEnv = { ...env, LOCAL_DEPLOYMENT: '' };

/**
 * Three tiers. `unit`: pure rules, no Java, no emulator, no network (npm run test:unit, run first by CI). `infra`:
 * the CDK stack, its nag rules and the functions' bundles, synthesised with no emulator. `stack`: everything that
 * talks to DynamoDB Local and the local SQS server, started once per run by the global setup. `npm test` runs all.
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Three files at once on two cores: a stack test often waits (on the emulators, a queue's delay, a browser), and
    // with two workers the last full run still left 13% of the CPU idle. Files are apart by construction: a tenant
    // each, private queues, their own ports.
    maxWorkers: 3,
    env,
    // Beside the console's report, every test's duration, to find those near their limits under CI's load.
    reporters: ['default', ['json', { outputFile: 'node_modules/.cache/vitest/durations.json' }]],
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // An inline project takes none of the options above: the property tests over 30,000 generated numbers need
          // more than vitest's 5 s on a machine busy with the other tiers.
          testTimeout: 30_000,
          // Pure rules hold no state between files: they share their workers, which loads the modules once a worker
          // instead of once a file (half the tier's CPU: 54 s against 30 s, every test passing in any order).
          isolate: false,
          env: noStackEnv,
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          // Synthesising and bundling dozens of functions is CPU-bound: minutes on a busy machine.
          testTimeout: 120_000,
          hookTimeout: 120_000,
          pool: 'forks',
          env: noStackEnv,
        },
      },
      {
        test: {
          name: 'stack',
          include: ['test/**/*.test.ts'],
          exclude: ['test/unit/**', 'test/infra/**'],
          globalSetup: ['test/support/global-setup.ts'],
          // Files share their workers (each loaded the SDK's clients, playwright and our wiring again: 376-465 s of a
          // CI run's imports, 87-128 s shared); test/support/fresh-file.ts starts each file as in a process of its own.
          isolate: false,
          setupFiles: ['test/support/fresh-file.ts', 'test/support/worker-env.ts'],
          // A minute: a stack test shares two cores with two other workers, chromium, the JVM, the local stack and lint.
          // At the start of a passing CI run (load 20), a configuration test that takes 2 s took 25 s of 30.
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          env,
        },
      },
    ],
  },
});
