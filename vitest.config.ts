import { defineConfig } from 'vitest/config';

const env = {
  POWERTOOLS_LOG_LEVEL: 'SILENT',
  POWERTOOLS_METRICS_DISABLED: 'true',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

/**
 * Two tiers. `unit`: pure rules, no Java, no emulator, no network (npm run test:unit). `stack`: everything that talks
 * to DynamoDB Local and the local SQS server, started once per run by the global setup. `npm test` runs both.
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    env,
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], env } },
      {
        test: {
          name: 'stack',
          include: ['test/**/*.test.ts'],
          exclude: ['test/unit/**'],
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/worker-env.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          pool: 'forks',
          env,
        },
      },
    ],
  },
});
