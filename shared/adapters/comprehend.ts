import {
  BatchDetectKeyPhrasesCommand,
  BatchDetectSentimentCommand,
  ComprehendClient,
  DetectDominantLanguageCommand,
} from '@aws-sdk/client-comprehend';
import type { Sentiment, TextAnalyser } from '../themes/ports.js';

let client: ComprehendClient | undefined;
const comprehend = () => (client ??= new ComprehendClient({}));

/** A batch call's one document: its result, or its error (a batch answers per document, not with an exception). */
function only<T>(output: { ResultList?: T[]; ErrorList?: { ErrorCode?: string; ErrorMessage?: string }[] }): T {
  const failed = output.ErrorList?.[0];
  if (failed) throw new Error(`Comprehend refused the document: ${failed.ErrorCode ?? 'unknown'}`);
  const result = output.ResultList?.[0];
  if (!result) throw new Error('Comprehend answered no result');
  return result;
}

/**
 * Amazon Comprehend through its SDK (locally the endpoint of infra/local/comprehend.ts). The batch calls, one
 * document each: the same price per unit as the single calls, and the shape a consumer batching its records needs.
 */
export const comprehendAnalyser: TextAnalyser = {
  async language(text) {
    const { Languages } = await comprehend().send(new DetectDominantLanguageCommand({ Text: text }));
    return Languages?.[0]?.LanguageCode ?? 'und';
  },
  async analyse(text, language) {
    const LanguageCode = language as 'pt';
    const [sentiment, phrases] = await Promise.all([
      comprehend().send(new BatchDetectSentimentCommand({ TextList: [text], LanguageCode })),
      comprehend().send(new BatchDetectKeyPhrasesCommand({ TextList: [text], LanguageCode })),
    ]);
    return {
      sentiment: (only(sentiment).Sentiment ?? 'NEUTRAL').toLowerCase() as Sentiment,
      keyPhrases: (only(phrases).KeyPhrases ?? []).map((phrase) => phrase.Text ?? '').filter(Boolean),
    };
  },
};
