import { keys } from '../keys.js';
import type { Item } from './dynamodb.js';

/** How many answer ids a suggestion cell keeps as examples: slots by id, so a cell stays small whatever its count. */
export const PHRASE_EXAMPLES = 3;

/** The dimensions of the suggestion cells (keys.phrases) one counted phrase moves: the tenant's, its store's, its journey's. */
const PHRASE_DIMENSIONS = ['all', 'store', 'journey'] as const;

/** The keys of the suggestion cells one phrase of an answer moves: each dimension's day and month cells. */
export function phraseCellKeys(
  tenantId: number,
  answer: { storeId: number; journeyId: number },
  { day, phraseKey }: { day: string; phraseKey: string },
): Item[] {
  const ids = { all: 0, store: answer.storeId, journey: answer.journeyId };
  return PHRASE_DIMENSIONS.flatMap((dimension) =>
    (['day', 'month'] as const).map((grain) => ({
      pk: keys.phrases(tenantId, grain === 'day' ? day.slice(0, 7) : day.slice(0, 4)),
      sk: keys.phraseSort({ dimension, id: ids[dimension], grain, period: grain === 'day' ? day : day.slice(0, 7), phrase: phraseKey }),
    })),
  );
}
