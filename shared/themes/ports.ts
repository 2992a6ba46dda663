import type { Bucket } from '../settings/scales.js';
import type { Settings } from '../settings/settings.js';
import type { Theme } from './theme.js';

/** Comprehend's four sentiments, lower-cased as the API shows them. */
/** A phrase as counted: `key` its words stemmed, lower-cased, without accents (what groups it); `phrase` as shown, lower-cased. */
export interface CountedPhrase {
  key: string;
  phrase: string;
}

export const SENTIMENTS = ['positive', 'negative', 'neutral', 'mixed'] as const;
export type Sentiment = (typeof SENTIMENTS)[number];

/** An answer as the analysis reads it. */
export interface AnalysedAnswer {
  /** The answer's version (1, one more at each correction). */
  version: number;
  comment: string | null;
  score: number;
  journeyId: number;
  storeId: number;
  employeeId: number;
  /** The UTC day (YYYY-MM-DD) of the first answer: the day its counts belong to, as the results'. */
  day: string;
  /** The first answer's instant: the answer's place in the lists (by theme and sentiment too). */
  answeredAt: string;
  /** The classes it rated: the lists by theme and sentiment filter on them as the list of all answers does. */
  items: { classId: number; score: number }[];
  /** Where the answer came from (a channel, `api`, `qr`...; absent on answers stored before sources were kept). */
  source?: string;
  /** What an earlier analysis of this answer counted, if one did. */
  counted: CountedAnalysis | null;
  /** The phrases an earlier analysis counted as suggestions, and for which version. */
  phrases?: PhrasesCounted | undefined;
  /** What an earlier analysis read of the comment (absent once erased or expired, with the comment). */
  read?: { language: string; keyPhrases: string[] } | undefined;
}

/** One theme a comment mentions, with the polarity of what it says of it. */
export interface Aspect {
  theme: string;
  sentiment: Sentiment;
}

/** What a page shows of an answer's analysis: its sentiment and themes (slugs). */
export interface ShownAnalysis {
  sentiment: Sentiment;
  themes: string[];
}

/** What one analysis added to the theme counters: what a correction takes back. */
export interface CountedAnalysis {
  version: number;
  themes: string[];
  /** Each theme's polarity (absent on analyses counted before mentions had one: they counted none). */
  aspects?: Aspect[] | undefined;
  bucket: Bucket | null;
  sentiment: Sentiment;
  score: number;
  day: string;
}

/** The uncovered key phrases one analysis counted (suggestions), by their keys: what a correction takes back. */
export interface PhrasesCounted {
  version: number;
  day: string;
  language: string;
  phrases: CountedPhrase[];
  /** The comment is a complaint (its score's bucket, else its sentiment, negative): its phrases count in `negative` too. */
  negative?: boolean | undefined;
}

/** What the analysis stores on the answer. */
export interface CommentAnalysis extends CountedAnalysis {
  language: string;
  keyPhrases: string[];
}

/** One change to the theme counters: +1 or -1 to a theme's cells of an answer's store, employee and journey. */
export interface ThemeDelta {
  theme: string;
  day: string;
  ids: { store: number; employee: number; journey: number };
  bucket: Bucket | null;
  sentiment: Sentiment;
  /** The polarity of the mention (absent: an older analysis, which counted none). */
  aspect?: Sentiment | undefined;
  score: number;
  sign: 1 | -1;
}

/** An entry of the answer in the list of one theme's or one sentiment's answers. */
export interface ListedBy {
  filter: 'theme' | 'sentiment';
  value: string;
}

/** The answer's entries in those lists that its new analysis writes (`put`), and those of the previous one that go. */
export interface ListingChange {
  answer: AnalysedAnswer;
  put: ListedBy[];
  remove: ListedBy[];
}

export interface AnalysisStore {
  read(tenantId: number, transactionId: number): Promise<AnalysedAnswer | undefined>;
  /**
   * Stores `analysis` on the answer and moves the counters, all or nothing, while the answer is still at
   * `analysis.version` and what it counted is still `previous` (its version and themes): 'stale' when either moved
   * since. With them, the answer's entries in the lists by theme and sentiment (`listing`).
   */
  save(
    tenantId: number,
    transactionId: number,
    saved: { analysis: CommentAnalysis; previous: CountedAnalysis | null; deltas: ThemeDelta[]; listing: ListingChange },
  ): Promise<'saved' | 'stale'>;
  /**
   * Counts `counted`'s phrases in the suggestion counters and takes back `previous`'s, all or nothing, while the answer
   * is still at `counted.version`, analysed at it, and its phrases are still `previous` (by version).
   */
  countPhrases(
    tenantId: number,
    transactionId: number,
    phrases: { answer: Pick<AnalysedAnswer, 'storeId' | 'journeyId'>; counted: PhrasesCounted; previous: PhrasesCounted | null },
  ): Promise<'saved' | 'stale'>;
}

/**
 * Amazon Comprehend, as the analysis asks it: a comment's sentiment, one comment at a time (the batch call, with one
 * document), and only for a tenant that keeps it on. Its language and key phrases are the service's own
 * (shared/themes/extraction.ts).
 */
export interface TextAnalyser {
  sentiment(text: string, language: string): Promise<Sentiment>;
}

export interface AnalysisPorts {
  answers: AnalysisStore;
  comprehend: TextAnalyser;
  /** The tenant's journeys (their scales) and themes (absent: the defaults). */
  settings: (tenantId: number) => Promise<Pick<Settings, 'journeys' | 'locale' | 'commentAnalysis'> & { themes?: readonly Theme[] }>;
}

/** The answers of one UTC day, a page at a time, and the checkpoint of a reanalysis (for the operator only). */
export interface ReanalysisPorts {
  /** How many index partitions hold a day's answers (pages are read from each in turn). */
  partitions: number;
  answersOfDay(
    tenantId: number,
    page: { day: string; partition: number; cursor: string | null },
  ): Promise<{ transactionIds: number[]; next: string | null }>;
  checkpoint: {
    read(tenantId: number): Promise<ReanalysisCheckpoint | undefined>;
    /** Null: the run is finished. */
    write(tenantId: number, checkpoint: ReanalysisCheckpoint | null): Promise<void>;
  };
}

/** Where a reanalysis is: its period, the day, and the index partitions of the day with pages left (and where). */
export interface ReanalysisCheckpoint {
  from: string;
  to: string;
  day: string;
  pending: { partition: number; cursor: string | null }[];
  /** Answers whose themes moved so far. */
  moved: number;
  read: number;
}
