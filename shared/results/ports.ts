import type { Employee } from '../employees/schema.js';
import type { Store } from '../stores/schema.js';
import type { Settings } from '../settings/settings.js';
import type { Dimension } from './tally.js';

/** A counter as stored: its dimension and ids, the day (YYYY-MM-DD) or month (YYYY-MM) it counts, and its sums. */
export interface CounterRow {
  dimension: Dimension;
  ids: number[];
  period: string;
  counts: Record<string, number>;
}

/** Where counters are read: `shared/adapters/result-counters.ts` implements it (their writes ride on the answer's). */
export interface ResultCounters {
  /**
   * The counters of one journey and dimension over one month (`grain` day: its days) or one year (`grain` month: its
   * months), optionally only those whose ids start with `ids`. A counter may come as several rows (one per shard it
   * was written to): their counts add up.
   */
  read(query: {
    tenantId: number;
    journeyId: number;
    dimension: Dimension;
    grain: 'day' | 'month';
    /** YYYY-MM for days, YYYY for months. */
    partition: string;
    ids?: number[];
    /** The journey's `resultShards`: every one is read (1 when absent). */
    shards?: number | undefined;
  }): Promise<CounterRow[]>;
}

export interface ResultsPorts {
  counters: ResultCounters;
  settings: (tenantId: number) => Promise<Settings>;
  stores: { getMany(tenantId: number, ids: number[]): Promise<Store[]> };
  employees: { getMany(tenantId: number, ids: number[]): Promise<Employee[]> };
}
