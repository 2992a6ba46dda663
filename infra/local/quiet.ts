/**
 * Imported first by what starts the local stack: Powertools reads these when its Logger and Metrics are built, which is
 * when the service's modules load, so setting them in the starting module's body (after its imports ran) is too late.
 * Metrics are CloudWatch's embedded lines: locally they would only flood the output.
 */
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
// The SDK warns that its 2027 releases need Node 22; Lambda runs 24, and this machine's Node 20 is supported until then.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
