import * as v from 'valibot';
import { DEFAULT_MIN_ANSWERS_TO_RANK } from './ranking.js';

/** Stores and employees with fewer answers in a period are listed apart, never ranked (shared/results/ranking.ts). */
export const MIN_ANSWERS_TO_RANK = v.optional(
  v.pipe(
    v.number('must be a number'),
    v.integer('must be a whole number'),
    v.minValue(1, 'must be at least 1'),
    v.maxValue(1000, 'must be at most 1000'),
  ),
  DEFAULT_MIN_ANSWERS_TO_RANK,
);
export const RankingConfig = v.strictObject({ minAnswersToRank: MIN_ANSWERS_TO_RANK });
