import {
  BatchDetectKeyPhrasesCommand,
  BatchDetectSentimentCommand,
  ComprehendClient,
  DetectDominantLanguageCommand,
  DetectSentimentCommand,
} from '@aws-sdk/client-comprehend';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalComprehend, type LocalComprehend } from '../../infra/local/comprehend.js';

/** The local Comprehend endpoint, called by the real SDK client: the service's shapes, limits and errors. */
let endpoint: LocalComprehend;
let client: ComprehendClient;

beforeAll(async () => {
  endpoint = await startLocalComprehend({ port: 0 });
  client = new ComprehendClient({ endpoint: endpoint.url, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
});
afterAll(async () => {
  client.destroy();
  await endpoint.stop();
});

describe('the local Comprehend endpoint', () => {
  it('answers the single and batch calls in the shapes the SDK reads', async () => {
    const language = await client.send(new DetectDominantLanguageCommand({ Text: 'El personal fue muy amable' }));
    expect(language.Languages?.[0]).toMatchObject({ LanguageCode: 'es', Score: expect.any(Number) });
    const one = await client.send(new DetectSentimentCommand({ Text: 'Prices are too high for what you get', LanguageCode: 'en' }));
    expect(one).toMatchObject({ Sentiment: 'NEGATIVE', SentimentScore: { Negative: expect.any(Number) } });
    const batch = await client.send(
      new BatchDetectSentimentCommand({ TextList: ['Atendimento ótimo, adorei', 'Péssimo, demorado e caro'], LanguageCode: 'pt' }),
    );
    expect(batch.ResultList?.map((r) => [r.Index, r.Sentiment])).toEqual([
      [0, 'POSITIVE'],
      [1, 'NEGATIVE'],
    ]);
    const phrases = await client.send(
      new BatchDetectKeyPhrasesCommand({ TextList: ['A fila estava enorme no caixa'], LanguageCode: 'pt' }),
    );
    expect(phrases.ResultList?.[0]?.KeyPhrases?.map((p) => [p.Text, p.BeginOffset, p.EndOffset])).toEqual([
      ['fila', 2, 6],
      ['enorme', 14, 20],
      ['caixa', 24, 29],
    ]);
    expect(endpoint.requests.map((r) => r.operation)).toEqual([
      'DetectDominantLanguage',
      'DetectSentiment',
      'BatchDetectSentiment',
      'BatchDetectKeyPhrases',
    ]);
  });

  it("refuses as the service does: more than 25 documents, more than 5,000 UTF-8 bytes, a language it doesn't know", async () => {
    await expect(
      client.send(new BatchDetectSentimentCommand({ TextList: Array(26).fill('ok'), LanguageCode: 'en' })),
    ).rejects.toMatchObject({
      name: 'BatchSizeLimitExceededException',
    });
    // 2,501 characters of two bytes each: under 5,000 characters, over 5,000 bytes.
    await expect(client.send(new DetectSentimentCommand({ Text: 'ã'.repeat(2501), LanguageCode: 'pt' }))).rejects.toMatchObject({
      name: 'TextSizeLimitExceededException',
    });
    await expect(client.send(new DetectSentimentCommand({ Text: 'Sehr gut', LanguageCode: 'de' }))).rejects.toMatchObject({
      name: 'UnsupportedLanguageException',
    });
  });
});
