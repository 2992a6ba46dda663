import { describe, expect, it } from 'vitest';
import { configChanges } from '../../shared/tenants/configuration.js';
import { configFingerprint, configPlan, SINCE_APPLY } from '../../shared/tenants/apply-plan.js';
import type { ConfigDocument } from '../../shared/tenants/config-schema.js';

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

describe("an apply's plan", () => {
  const journey = (id: number, slug: string) => ({ id, slug, indicator: 'nps', classes: [1], channels: ['email'] });
  const config = (fields: object) => ({ name: 'acme', brand: { name: 'Acme', colour: '#145a32' }, ...fields }) as unknown as ConfigDocument;

  it('names each field it changes, and those changed since the last apply, whole journeys included', () => {
    const applied = configFingerprint(config({ journeys: [journey(1, 'loja')], delivery: { webhooks: [{ url: 'https://a.example/h' }] } }));
    // Since: the colour and journey 1's slug changed on the admin pages, and a webhook was added.
    const current = config({
      brand: { name: 'Acme', colour: '#1a5276' },
      journeys: [journey(1, 'balcao')],
      delivery: { webhooks: [{ url: 'https://a.example/h' }, { url: 'https://b.example/h' }] },
    });
    const planned = config({ journeys: [journey(2, 'online')], delivery: { webhooks: [{ url: 'https://a.example/h' }] }, locale: 'es' });

    expect(configPlan(current, planned, applied)).toEqual([
      `  brand.colour: "#1a5276" -> "#145a32" (${SINCE_APPLY})`,
      `  journeys[id=1]: ${JSON.stringify(journey(1, 'balcao'))} -> (none) (${SINCE_APPLY})`,
      `  journeys[id=2]: (none) -> ${JSON.stringify(journey(2, 'online'))}`,
      `  delivery.webhooks[url=https://b.example/h]: {"url":"https://b.example/h"} -> (none) (${SINCE_APPLY})`,
      '  locale: (none) -> "es"',
    ]);
    // Without a record of the last apply, nothing is said to have changed since.
    expect(configPlan(current, planned, undefined).some((line) => line.includes(SINCE_APPLY))).toBe(false);
  });
});
