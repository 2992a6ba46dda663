import { keys } from '../keys.js';
import { TABLE } from '../table.js';
import type { ThemeCounters } from '../themes/report.js';
import { db, queryAll } from './dynamodb.js';

const NOT_COUNTS = new Set<string>([TABLE.partitionKey, TABLE.sortKey, TABLE.entityAttribute]);

/**
 * The theme counters the analysis writes (analysis-repository.ts), read by one prefix of one partition: a dimension's
 * ids and the grain, every period and theme under it (a year's months: 12 items per theme).
 */
export const themeCounters: ThemeCounters = {
  async read({ tenantId, dimension, ids, grain, partition }) {
    // The sort key's prefix up to the period: the dimension, its ids, the grain.
    const prefix = keys.themeSort({ dimension, id: ids, grain, period: '', theme: '' }).slice(0, -2);
    const items = await queryAll(db(), { partition: keys.themes(tenantId, partition), sortBeginsWith: `${prefix}#` });
    return items.map((item) => {
      const [period, theme] = String(item[TABLE.sortKey])
        .slice(prefix.length + 1)
        .split('#');
      return {
        theme: theme!,
        period: period!,
        counts: Object.fromEntries(Object.entries(item).filter(([name]) => !NOT_COUNTS.has(name)) as [string, number][]),
      };
    });
  },
};
