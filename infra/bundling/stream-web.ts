/**
 * What a bundle gets for `node:stream/web` (the alias in BUNDLE_ALIASES, infra/bundling/bundles.ts).
 *
 * `@middy/core` imports `ReadableStream` from `node:stream/web` for response streaming, which no function here uses;
 * the import alone makes Node load its web-streams implementation at every cold start, 1 ms of CPU (2% of a
 * function's import: `npm run bench -- cold-start`). This class answers `instanceof` as the real one does and
 * loads it only when asked, and the real one is the global's own (`globalThis.ReadableStream`). Nothing else in a
 * bundle may import from `node:stream/web`: `test/unit/bundling.test.ts` fails when a bundle needs more than this.
 */
export class ReadableStream {
  static [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof globalThis.ReadableStream;
  }
}
