import { ENV } from '../shared/config.js';

// Imported first by bench/run.ts: the logger and metrics read these when their modules load.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
// The benchmarks run the product on the local stack, whose demo tenants send to the local outbox over http: a local
// deployment from the first module on (the tenant file is read as modules load, before the stack says so).
process.env[ENV.localDeployment] = '1';
