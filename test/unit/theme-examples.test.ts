import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../shared/access/ports.js';
import type { StoredAnswer } from '../../shared/answers/ports.js';
import { themeExamples } from '../../shared/answers/theme-examples.js';
import type { Settings } from '../../shared/settings/settings.js';
import { distinctTexts } from '../../shared/text.js';
import { memoryThemes } from '../support/memory.js';

/** The example comments a theme shows (the results page's themes): never the same words twice. */
const TENANT = 7;
const settings = { journeys: [{ id: 1, slug: 'loja' }], regions: [] } as unknown as Pick<Settings, 'journeys' | 'regions'>;
const user: Promise<UserRecord> = Promise.resolve({
  name: 'gerente@demo.local',
  scope: 'all',
  tokenHash: 'h',
  created_at: '2026-01-01T00:00:00Z',
});

const answer = (id: number, at: string, comment: string): StoredAnswer => ({
  id,
  transactionId: null,
  answeredAt: at,
  journeyId: 1,
  storeId: 1,
  employeeId: 1,
  customerId: id,
  customerName: null,
  source: 'api',
  score: 2,
  comment,
  items: [],
  sentiment: 'negative',
  themes: ['wait'],
  aspects: [{ theme: 'wait', sentiment: 'negative' }],
});

describe('theme examples', () => {
  it('shows two comments that say different things, the newest first, though the newest two say the same', async () => {
    const themes = memoryThemes();
    themes.add(TENANT, answer(1, '2026-05-26T12:00:00Z', 'A fila não andava'), 'detractor', 'negative');
    themes.add(TENANT, answer(2, '2026-05-27T12:00:00Z', 'Demorou muito'), 'detractor', 'negative');
    themes.add(TENANT, answer(3, '2026-05-28T12:00:00Z', 'Demorou  muito.'), 'detractor', 'negative');
    const found = await themeExamples({ answers: themes.answers, settings: async () => settings })(
      TENANT,
      { journey: 'loja', from: '2026-05-25', to: '2026-05-31', wanted: [{ theme: 'wait', polarity: 'negative' }] },
      user,
    );
    expect(found.get('wait:negative')).toEqual(['Demorou muito.', 'A fila não andava']);
  });

  it('takes texts apart only by their words: not by case, accents, punctuation, symbols or spaces', () => {
    expect(distinctTexts(['Demorou muito', 'demorou MUITO!!', ' Demoróu, muito ', 'Demorou muito mesmo'], 5)).toEqual([
      'Demorou muito',
      'Demorou muito mesmo',
    ]);
    expect(distinctTexts(['a', 'b', 'c'], 2)).toEqual(['a', 'b']);
  });
});
