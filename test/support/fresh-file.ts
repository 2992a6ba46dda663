import asyncHooks from 'node:async_hooks';
import { syncBuiltinESMExports } from 'node:module';
import { vi } from 'vitest';

/**
 * The stack tier shares its workers between files (vitest.config.ts): each file starts as if in a process of its own,
 * with the environment the worker began with (a file may point a function at a private queue or table, or remove a
 * variable) and the project's modules evaluated afresh (a function reads its configuration when it loads). The
 * libraries stay loaded: that is the point of sharing the worker.
 */
const key = Symbol.for('survey-service.test.environment-at-start');
const kept = globalThis as unknown as Record<symbol, NodeJS.ProcessEnv | undefined>;
const start = (kept[key] ??= { ...process.env });
for (const name of Object.keys(process.env)) if (!(name in start)) delete process.env[name];
Object.assign(process.env, start);
vi.resetModules();

/**
 * And without the AsyncLocalStorage instances of the files before it. The project makes a few at load (the local
 * invocation's context, the role it runs as, a request's configuration version); each file's modules make new ones,
 * and every instance once used stays enabled: Node then carries each one into every promise made after. Ten files
 * on, a CPU-bound test ran 2.5 times slower (the scale simulation: 10 s alone, 24 s after ten files; its profile
 * showed async_hooks' propagation and the garbage collector). The project's instances of the files before are
 * disabled, as their process ending would drop them; the libraries' own are left alone.
 */
type Storage = InstanceType<typeof asyncHooks.AsyncLocalStorage>;
const storagesKey = Symbol.for('survey-service.test.project-async-local-storages');
const storages = globalThis as unknown as Record<symbol, Set<Storage> | undefined>;
if (!storages[storagesKey]) {
  const made = new Set<Storage>();
  const Original = asyncHooks.AsyncLocalStorage;
  class ProjectStorage<T> extends Original<T> {
    constructor() {
      super();
      // Made by a module of the project (not under node_modules): it is dropped with its file.
      const caller = new Error().stack?.split('\n')[2] ?? '';
      if (!caller.includes('node_modules')) made.add(this);
    }
  }
  asyncHooks.AsyncLocalStorage = ProjectStorage;
  syncBuiltinESMExports();
  storages[storagesKey] = made;
}
for (const storage of storages[storagesKey]) storage.disable();
storages[storagesKey].clear();
