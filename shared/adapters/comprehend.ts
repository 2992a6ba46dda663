import { BatchDetectSentimentCommand, ComprehendClient } from '@aws-sdk/client-comprehend';
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
 * Amazon Comprehend through its SDK (locally the endpoint of infra/local/comprehend.ts): a comment's sentiment, the one
 * call the analysis still makes (its language and key phrases are the service's own, shared/themes/extraction.ts). The
 * batch call, one document: the same price per unit as the single call, and the shape a consumer batching its records
 * needs.
 */
export const comprehendAnalyser: TextAnalyser = {
  async sentiment(text, language) {
    const output = await comprehend().send(new BatchDetectSentimentCommand({ TextList: [text], LanguageCode: language as 'pt' }));
    return (only(output).Sentiment ?? 'NEUTRAL').toLowerCase() as Sentiment;
  },
};
