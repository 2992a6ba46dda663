// Imported first by the global setup (imports run before a module's body): the local stack's own log lines would bury
// the test report. Tests that read logs turn the level up themselves.
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
