import { keys } from '../keys.js';
import type { PhraseCell, SuggestionPorts } from '../themes/suggestions.js';
import { PHRASE_EXAMPLES } from './analysis-repository.js';
import { db, queryAll } from './dynamodb.js';

/**
 * The most cells one read takes (a dimension's month of days, or year of months): the phrases are the comments' own, so
 * their number has no bound of its own; this keeps a month's suggestions to a bounded read (5,000 cells of about
 * 150 bytes: 750 kB, 2 or 3 Query pages), at the price of phrases past it going unread.
 */
export const MAX_CELLS_READ = 5_000;

export const phraseCells: SuggestionPorts['cells'] = async (tenantId, { dimension, id, grain, partition }) => {
  const items = await queryAll(db(), {
    partition: keys.phrases(tenantId, partition),
    sortBeginsWith: keys.phraseSort({ dimension, id, grain, period: '', phrase: '' }).replace(/#+$/, '#'),
    atMost: MAX_CELLS_READ,
  });
  return items.map((item): PhraseCell => {
    const [, , , period, key] = String(item.sk).split('#');
    return {
      period: period!,
      key: key!,
      phrase: String(item.phrase ?? key),
      language: String(item.language ?? ''),
      count: Number(item.count ?? 0),
      negative: Number(item.negative ?? 0),
      examples: Array.from({ length: PHRASE_EXAMPLES }, (_, i) => item[`example${i}`]).filter((id): id is number => typeof id === 'number'),
    };
  });
};
