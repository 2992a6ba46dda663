import { mkdirSync, writeFileSync } from 'node:fs';
import { coldStart } from './cold-start.js';

/** `npm run bench`: prints each table and writes them all to bench/results/latest.md. */
const tables = [await coldStart()];
const report = [`# Benchmarks`, '', `Run ${new Date().toISOString()} on ${process.platform}/${process.arch}.`, '', ...tables].join('\n');
console.log(report);
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/latest.md', import.meta.url), `${report}\n`);
