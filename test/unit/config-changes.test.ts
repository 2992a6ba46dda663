import { describe, expect, it } from 'vitest';
import { configChanges } from '../../shared/tenants/configuration.js';

describe('what changed between two configurations', () => {
  const journey = (id: number, slug: string) => ({ id, slug, indicator: 'nps', classes: [1], channels: ['email'] });

  it('names an added, a removed and an edited journey by id, not by position', () => {
    const before = { journeys: [journey(1, 'loja'), journey(2, 'ecommerce')] };
    const after = { journeys: [journey(2, 'online'), journey(3, 'balcao')] };

    expect(configChanges(before, after)).toEqual([
      { path: 'journeys[id=1]', old: journey(1, 'loja'), new: null },
      { path: 'journeys[id=2].slug', old: 'ecommerce', new: 'online' },
      { path: 'journeys[id=3]', old: null, new: journey(3, 'balcao') },
    ]);
  });

  it('names webhooks by URL, a list of plain values as a whole, and finds nothing in an identical configuration', () => {
    const before = { delivery: { webhooks: [{ url: 'https://a.example/h', events: ['survey.answered'] }] }, journeys: [journey(1, 'x')] };
    const after = {
      delivery: { webhooks: [{ url: 'https://a.example/h', events: ['survey.answered', 'survey.failed'] }] },
      journeys: [journey(1, 'x')],
    };

    expect(configChanges(before, after)).toEqual([
      { path: 'delivery.webhooks[url=https://a.example/h].events', old: ['survey.answered'], new: ['survey.answered', 'survey.failed'] },
    ]);
    expect(configChanges(after, structuredClone(after))).toEqual([]);
  });
});
