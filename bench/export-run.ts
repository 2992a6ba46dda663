import { answerExportFiles } from '../shared/adapters/wiring/answers.js';
import { loadSecrets } from '../shared/adapters/secrets.js';
import { ExportMessage } from '../shared/answers/export.js';
import { ENV } from '../shared/config.js';
import * as v from 'valibot';

/**
 * One run of an answer export in a process of its own, as its function runs it (bench/export-cost.ts starts it): what
 * it prints is that process's peak resident memory, as Lambda's "Max Memory Used" is the function's, and the time.
 */
const message = v.parse(ExportMessage, JSON.parse(process.argv[2]!));
await loadSecrets(ENV.cursorSecret);
const before = process.memoryUsage().rss;
const started = performance.now();
const outcome = await answerExportFiles.run(message);
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify({ outcome, seconds, beforeBytes: before, peakBytes: process.resourceUsage().maxRSS * 1024 }));
process.exit(0);
