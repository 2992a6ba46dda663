import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { BUCKETS } from '../answers/schema.js';
import { keys } from '../keys.js';
import { inIndex, TABLE } from '../table.js';
import {
  SENTIMENTS,
  type AnalysedAnswer,
  type AnalysisStore,
  type ListedBy,
  type ListingChange,
  type PhrasesCounted,
  type ShownAnalysis,
  type ThemeDelta,
} from '../themes/ports.js';
import type { CountedPhrase } from '../themes/phrases.js';
import { db, type Item } from './dynamodb.js';
import { PHRASE_EXAMPLES, phraseCellKeys } from './phrase-cells.js';
import { unexpired } from './personal-copies.js';
import { updateCounting, type TransactItem } from './result-counters.js';
import { ANSWER_SHARDS } from './transaction-repository.js';

/**
 * The analysis on the answer's transaction item (`analysis`), and the theme counters it moved (keys.themes). Erasure
 * and retention remove what it says of the comment (language, sentiment, themes, key phrases: personal-copies.ts)
 * and keep `analysis.counted`, what the counters hold of it, so that a later correction still takes back the right
 * cells.
 */
const Aspect = v.object({ theme: v.string(), sentiment: v.picklist(SENTIMENTS) });

const Counted = v.object({
  version: v.number(),
  themes: v.array(v.string()),
  aspects: v.optional(v.array(Aspect)),
  bucket: v.nullable(v.picklist(BUCKETS)),
  sentiment: v.picklist(SENTIMENTS),
  score: v.number(),
  day: v.string(),
});

const PhrasesCounted = v.object({
  version: v.number(),
  day: v.string(),
  language: v.string(),
  phrases: v.array(v.object({ key: v.string(), phrase: v.string() })),
  negative: v.optional(v.boolean()),
});

const Stored = v.object({
  answer_version: v.optional(v.number()),
  answered_at: v.optional(v.string()),
  rating_items: v.optional(v.array(v.object({ class_id: v.number(), score: v.number() })), []),
  rating: v.optional(v.nullable(v.object({ score: v.number(), comment: v.optional(v.nullable(v.string())) }))),
  journey_id: v.number(),
  store_id: v.number(),
  employee_id: v.number(),
  eval_source: v.optional(v.string()),
  analysis: v.optional(
    v.object({
      counted: Counted,
      language: v.optional(v.string()),
      key_phrases: v.optional(v.array(v.string())),
      phrases_counted: v.optional(PhrasesCounted),
    }),
  ),
});

/** The counters one delta moves: the theme's day and month cells of the answer's store, employee, journey, and store in its journey. */
function counterCells(tenantId: number, delta: ThemeDelta): { key: Item; adds: Record<string, number> }[] {
  const adds: Record<string, number> = {
    comments: delta.sign,
    score_sum: delta.sign * delta.score,
    [delta.sentiment]: delta.sign,
    // The mention's own polarity (docs/themes.md#counters): what group_by=theme's negative and positive sum.
    ...(delta.aspect ? { [`aspect_${delta.aspect}`]: delta.sign } : {}),
    ...(delta.bucket ? { [delta.bucket]: delta.sign } : {}),
  };
  const { store, employee, journey } = delta.ids;
  const dimensions: [string, number | number[]][] = [
    ['store', store],
    ['employee', employee],
    ['journey', journey],
    ['storeJourney', [store, journey]],
  ];
  return dimensions.flatMap(([dimension, id]) =>
    (['day', 'month'] as const).map((grain) => ({
      key: {
        pk: keys.themes(tenantId, grain === 'day' ? delta.day.slice(0, 7) : delta.day.slice(0, 4)),
        sk: keys.themeSort({ dimension, id, grain, period: grain === 'day' ? delta.day : delta.day.slice(0, 7), theme: delta.theme }),
      },
      adds,
    })),
  );
}

/**
 * The counter updates of all the deltas, one per cell: a correction that keeps a theme takes back and adds to the same
 * cells, and a transaction may write an item once.
 */
function counterUpdates(tenantId: number, deltas: ThemeDelta[]): TransactItem[] {
  const cells = new Map<string, { key: Item; adds: Record<string, number> }>();
  for (const cell of deltas.flatMap((delta) => counterCells(tenantId, delta))) {
    const id = `${cell.key.pk}|${cell.key.sk}`;
    const sum = cells.get(id) ?? { key: cell.key, adds: {} };
    for (const [name, n] of Object.entries(cell.adds)) sum.adds[name] = (sum.adds[name] ?? 0) + n;
    cells.set(id, sum);
  }
  const { tableName } = db();
  return [...cells.values()].map(({ key, adds }) => {
    const names: Record<string, string> = { '#entity': TABLE.entityAttribute };
    const values: Item = { ':entity': 'THEME_COUNT' };
    const expression = Object.entries(adds).map(([name, value], i) => {
      names[`#c${i}`] = name;
      values[`:c${i}`] = value;
      return `#c${i} :c${i}`;
    });
    return {
      Update: {
        TableName: tableName,
        Key: key,
        UpdateExpression: `SET #entity = :entity ADD ${expression.join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    };
  });
}

/**
 * The answer's entry in the list of one theme's (or one sentiment's) answers: a small item in the answer's partition,
 * in both answer indexes (by store, and in the tenant's shards) under the theme's own partitions, with the sort key of
 * the answer's own entries and what the list filters on (journey, store, employee, score, classes, source): the list reads it
 * as it reads the answers' entries, then the page's answers (shared/adapters/answer-repository.ts).
 */
function listingEntry(tenantId: number, transactionId: number, { answer, filter, value }: ListedBy & { answer: AnalysedAnswer }): Item {
  const sort = keys.evaluationSort(answer.answeredAt, transactionId);
  return {
    ...keys.answerFilterEntry(tenantId, transactionId, { filter, value }),
    [TABLE.entityAttribute]: 'ANSWER_LISTING',
    id: transactionId,
    journey_id: answer.journeyId,
    store_id: answer.storeId,
    employee_id: answer.employeeId,
    rating: { score: answer.score },
    rating_items: answer.items.map((item) => ({ class_id: item.classId, score: item.score })),
    ...(answer.source ? { eval_source: answer.source } : {}),
    ...inIndex('gsi10', keys.answersByStoreWith(tenantId, answer.storeId, { filter, value }), sort),
    ...inIndex('gsi11', keys.answersByShardWith(tenantId, transactionId % ANSWER_SHARDS, { filter, value }), sort),
  };
}

/** The puts and deletes of an answer's list entries. */
function listingWrites(tenantId: number, transactionId: number, { answer, put, remove }: ListingChange): TransactItem[] {
  const { tableName } = db();
  return [
    ...remove.map((entry) => ({
      Delete: { TableName: tableName, Key: keys.answerFilterEntry(tenantId, transactionId, entry) },
    })),
    ...put.map((entry) => ({ Put: { TableName: tableName, Item: listingEntry(tenantId, transactionId, { answer, ...entry }) } })),
  ];
}

export { PHRASE_EXAMPLES };

/** The suggestion cells one phrase moves: the tenant's, its store's and its journey's, by day and by month. */
function phraseUpdates(
  tenantId: number,
  transactionId: number,
  {
    answer,
    counted,
    phrase,
    sign,
  }: { answer: { storeId: number; journeyId: number }; counted: PhrasesCounted; phrase: CountedPhrase; sign: 1 | -1 },
): TransactItem[] {
  const { tableName } = db();
  return phraseCellKeys(tenantId, answer, { day: counted.day, phraseKey: phrase.key }).map((key) => ({
    Update: {
      TableName: tableName,
      Key: key,
      // An added phrase shows as it was written last, in its language, and this answer as one of its examples.
      // A negative comment's phrases count in `negative` too: the suggestions list those first.
      UpdateExpression: `${sign > 0 ? 'SET #entity = :entity, phrase = :phrase, #language = :language, #example = :id ' : ''}ADD #count :sign${counted.negative ? ', #negative :sign' : ''}`,
      ExpressionAttributeNames: {
        '#count': 'count',
        ...(counted.negative ? { '#negative': 'negative' } : {}),
        ...(sign > 0
          ? { '#entity': TABLE.entityAttribute, '#language': 'language', '#example': `example${transactionId % PHRASE_EXAMPLES}` }
          : {}),
      },
      ExpressionAttributeValues: {
        ':sign': sign,
        ...(sign > 0 ? { ':entity': 'PHRASE_COUNT', ':phrase': phrase.phrase, ':language': counted.language, ':id': transactionId } : {}),
      },
    },
  }));
}

const Shown = v.object({
  rating: v.optional(v.nullable(v.object({ comment: v.optional(v.nullable(v.string())) }))),
  analysis: v.optional(v.object({ sentiment: v.optional(v.picklist(SENTIMENTS)), themes: v.optional(v.array(v.string())) })),
});

/**
 * The sentiment and themes of an answer's comment (the case page's chips): one projected GetItem; null before the
 * analysis, without a comment, and once erasure or retention removed the comment with what the analysis said of it.
 */
export async function shownAnalysis(tenantId: number, transactionId: number): Promise<ShownAnalysis | null> {
  const { client, tableName } = db();
  const { Item: item } = await client.send(
    new GetCommand({
      TableName: tableName,
      Key: keys.transaction(tenantId, transactionId),
      ProjectionExpression: 'rating, analysis, personal_expires_at',
    }),
  );
  const parsed = item && v.safeParse(Shown, unexpired(item));
  const { rating, analysis } = parsed?.success ? parsed.output : {};
  if (!rating?.comment || !analysis?.sentiment) return null;
  return { sentiment: analysis.sentiment, themes: analysis.themes ?? [] };
}

export const analysisStore: AnalysisStore = {
  async countPhrases(tenantId, transactionId, { answer, counted, previous }) {
    const saved = await updateCounting(
      {
        TableName: db().tableName,
        Key: keys.transaction(tenantId, transactionId),
        UpdateExpression: 'SET #analysis.#phrases = :counted',
        // The phrases counted still the ones read (their version, and their list: a reanalysis keeps the version), so
        // that a redelivery, a second reanalysis or one at the same time counts nothing twice.
        ConditionExpression: `#version = :version AND #analysis.#counted.#v = :version AND ${previous ? '#analysis.#phrases.#v = :previous AND #analysis.#phrases.#list = :previousList' : 'attribute_not_exists(#analysis.#phrases)'}`,
        ExpressionAttributeNames: {
          '#analysis': 'analysis',
          '#phrases': 'phrases_counted',
          '#counted': 'counted',
          '#v': 'version',
          '#version': 'answer_version',
          ...(previous ? { '#list': 'phrases' } : {}),
        },
        ExpressionAttributeValues: {
          ':counted': counted,
          ':version': counted.version,
          ...(previous ? { ':previous': previous.version, ':previousList': previous.phrases } : {}),
        },
      },
      [
        ...(previous?.phrases ?? []).flatMap((phrase) =>
          phraseUpdates(tenantId, transactionId, { answer, counted: previous!, phrase, sign: -1 }),
        ),
        ...counted.phrases.flatMap((phrase) => phraseUpdates(tenantId, transactionId, { answer, counted, phrase, sign: 1 })),
      ],
    );
    return saved ? 'saved' : 'stale';
  },

  async read(tenantId, transactionId) {
    const { client, tableName } = db();
    const { Item: item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.transaction(tenantId, transactionId) }));
    // A comment whose retention ended, before the sweep removes it, is not analysed.
    const parsed = item && v.safeParse(Stored, unexpired(item));
    if (!parsed?.success || parsed.output.answer_version === undefined || !parsed.output.rating) return undefined;
    const stored = parsed.output;
    return {
      version: stored.answer_version!,
      comment: stored.rating!.comment ?? null,
      score: stored.rating!.score,
      journeyId: stored.journey_id,
      storeId: stored.store_id,
      employeeId: stored.employee_id,
      day: (stored.answered_at ?? new Date().toISOString()).slice(0, 10),
      answeredAt: stored.answered_at ?? new Date().toISOString(),
      items: stored.rating_items.map((item) => ({ classId: item.class_id, score: item.score })),
      ...(stored.eval_source ? { source: stored.eval_source } : {}),
      counted: stored.analysis?.counted ?? null,
      phrases: stored.analysis?.phrases_counted,
      read:
        stored.analysis?.language === undefined
          ? undefined
          : { language: stored.analysis.language, keyPhrases: stored.analysis.key_phrases ?? [] },
    };
  },

  async save(tenantId, transactionId, { analysis, previous, deltas, listing }) {
    const { tableName } = db();
    const counted = {
      version: analysis.version,
      themes: analysis.themes,
      ...(analysis.aspects ? { aspects: analysis.aspects } : {}),
      bucket: analysis.bucket,
      sentiment: analysis.sentiment,
      score: analysis.score,
      day: analysis.day,
    };
    const stored = {
      language: analysis.language,
      sentiment: analysis.sentiment,
      themes: analysis.themes,
      ...(analysis.aspects ? { aspects: analysis.aspects } : {}),
      key_phrases: analysis.keyPhrases,
      counted,
    };
    const saved = await updateCounting(
      {
        TableName: tableName,
        Key: keys.transaction(tenantId, transactionId),
        // A first analysis writes the whole map; a later one each of its attributes, keeping `phrases_counted` (the
        // suggestions it counted, which its own write moves and a correction or an erasure takes back).
        UpdateExpression: previous
          ? `SET ${Object.keys(stored)
              .map((name) => `#analysis.#a_${name} = :a_${name}`)
              .join(', ')}${analysis.aspects ? '' : ' REMOVE #analysis.#a_aspects'}`
          : 'SET #analysis = :analysis',
        // The answer still at this version, and the analysis still the one read (its version and themes: a reanalysis
        // keeps the version): a redelivery or a race counts nothing.
        // An erasure since (its customer's comment gone) takes no analysis either.
        // The polarities counted too (a reanalysis may move them alone): two runs at once count nothing twice.
        ConditionExpression: `#version = :version AND attribute_not_exists(#erased) AND ${previous ? `#analysis.#counted.#v = :previous AND #analysis.#counted.#themes = :previousThemes AND ${previous.aspects ? '#analysis.#counted.#aspects = :previousAspects' : 'attribute_not_exists(#analysis.#counted.#aspects)'}` : 'attribute_not_exists(#analysis)'}`,
        ExpressionAttributeNames: {
          '#analysis': 'analysis',
          '#erased': 'erased_at',
          '#version': 'answer_version',
          ...(previous
            ? {
                '#counted': 'counted',
                '#v': 'version',
                '#themes': 'themes',
                '#aspects': 'aspects',
                ...Object.fromEntries(['aspects', ...Object.keys(stored)].map((name) => [`#a_${name}`, name])),
              }
            : {}),
        },
        ExpressionAttributeValues: {
          ...(previous
            ? Object.fromEntries(Object.entries(stored).map(([name, value]) => [`:a_${name}`, value]))
            : { ':analysis': stored }),
          ':version': analysis.version,
          ...(previous ? { ':previous': previous.version, ':previousThemes': previous.themes } : {}),
          ...(previous?.aspects ? { ':previousAspects': previous.aspects } : {}),
        },
      },
      [...counterUpdates(tenantId, deltas), ...listingWrites(tenantId, transactionId, listing)],
    );
    return saved ? 'saved' : 'stale';
  },
};
