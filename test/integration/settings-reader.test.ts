import { readFileSync } from 'node:fs';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { db, queryAll, type Item } from '../../shared/adapters/dynamodb.js';
import { readSettings, recordOf } from '../../shared/adapters/settings-repository.js';
import { putBrand } from '../../shared/adapters/brand-repository.js';
import { rotateSigning } from '../../shared/adapters/event-signing.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { eventEndpoint } from '../../shared/events/signature.js';
import { keys } from '../../shared/keys.js';
import { TABLE } from '../../shared/table.js';
import { BrandSettings } from '../../shared/brand/ports.js';
import { RegionConfig } from '../../shared/regions.js';
import {
  AlertsConfig,
  AnalyticsConfig,
  CasesConfig,
  ThemeConfig,
  ClassConfig,
  DeliveryConfig,
  Group,
  JourneyConfig,
  PrivacyConfig,
  RankingConfig,
  type Settings,
} from '../../shared/tenants/config-schema.js';
import { parseTenantFile } from '../../shared/tenants/tenant-file.js';
import { LOCALES } from '../../shared/locale.js';
import { DigestsConfig } from '../../shared/digest/choices.js';
import { CommentAnalysisConfig } from '../../shared/themes/config.js';

/**
 * The settings reader turns a tenant's configuration items into records without the configuration's schemas (they
 * were judged when written). The oracle here is what the schemas make of the same items: the two must agree on every
 * field of a configuration that uses all of them, and on items written before a defaulted field existed.
 */
const oracle = async (tenantId: number): Promise<Settings> => {
  const items = await queryAll(db(), { partition: keys.config(tenantId), consistent: true });
  const of = (kind: string) => items.filter((item) => item[TABLE.entityAttribute] === kind);
  const Signing = v.object({
    endpoint: v.string(),
    current: v.number(),
    previousGeneration: v.optional(v.number()),
    previousUntil: v.optional(v.string()),
  });
  const signing = of('WEBHOOK_SIGNING').map((item) => v.parse(Signing, item));
  const { locale, timeZone } = v.parse(
    v.object({ locale: v.nullish(v.picklist(LOCALES)), timeZone: v.nullish(v.string()) }),
    of('LANGUAGE')[0] ?? {},
  );
  return {
    journeys: of('JOURNEY').map((item) => v.parse(v.object(JourneyConfig.entries), item)),
    classes: of('CLASS').map((item) => v.parse(v.object(ClassConfig.entries), item)),
    groups: of('GROUP').map((item) => v.parse(Group, item)),
    delivery: {
      ...v.parse(v.object(DeliveryConfig.entries), of('DELIVERY')[0] ?? {}),
      ...(signing.length
        ? {
            signing: Object.fromEntries(
              signing.map((s) => [
                s.endpoint,
                {
                  current: s.current,
                  ...(s.previousGeneration && s.previousUntil
                    ? { previous: { generation: s.previousGeneration, until: s.previousUntil } }
                    : {}),
                },
              ]),
            ),
          }
        : {}),
    },
    privacy: v.parse(v.object(PrivacyConfig.entries), of('PRIVACY')[0] ?? {}),
    cases: v.parse(v.object(CasesConfig.entries), of('CASES')[0] ?? {}),
    minAnswersToRank: v.parse(v.object(RankingConfig.entries), of('RANKING')[0] ?? {}).minAnswersToRank,
    alerts: v.parse(v.object(AlertsConfig.entries), of('ALERTS')[0] ?? {}),
    digests: v.parse(v.object(DigestsConfig.entries), of('DIGESTS')[0] ?? {}),
    regions: of('REGION').map((item) => v.parse(v.object(RegionConfig.entries), item)),
    analytics: v.parse(v.object(AnalyticsConfig.entries), of('ANALYTICS')[0] ?? {}),
    commentAnalysis: v.parse(v.object(CommentAnalysisConfig.entries), of('COMMENT_ANALYSIS')[0] ?? {}),
    ...(locale ? { locale } : {}),
    ...(timeZone ? { timeZone } : {}),
    ...(of('BRAND')[0] ? { brand: v.parse(BrandSettings, of('BRAND')[0]) } : {}),
    ...(of('THEME').length ? { themes: of('THEME').map((item) => v.parse(v.object(ThemeConfig.entries), item)) } : {}),
  };
};

const demo = JSON.parse(readFileSync(new URL('../../infra/local/demo-tenants.json', import.meta.url), 'utf8')) as {
  tenants: Record<string, unknown>[];
};

/** A demo tenant's file under a new id, with every optional field of a journey, privacy and language set. */
const fullTenant = (id: number, demoTenant: Record<string, unknown>) => {
  const journeys = demoTenant.journeys as Record<string, unknown>[];
  const [config] = parseTenantFile(
    JSON.stringify({
      tenants: [
        {
          ...demoTenant,
          id,
          users: [],
          keys: [],
          brand: { ...(demoTenant.brand as object), logo: undefined },
          locale: 'es',
          timeZone: 'America/Bogota',
          privacy: { retentionDays: 400 },
          minAnswersToRank: 12,
          alerts: { scoreDrop: true },
          digests: { daily: true },
          regions: [{ id: 4, name: 'Norte', stores: [1] }],
          analytics: { comments: true },
          commentAnalysis: { comprehendSentiment: false },
          themes: [
            { slug: 'parking', name: { 'pt-BR': 'Estacionamento', es: 'Aparcamiento', en: 'Parking' }, keywords: { es: ['aparcamiento'] } },
          ],
          journeys: [
            ...journeys,
            {
              id: 90,
              slug: 'completa',
              name: 'Completa',
              indicator: 'csat',
              classes: [1],
              channels: ['email', 'sms'],
              resurveyWindowDays: 3,
              question: '¿Qué tal {loja}?',
              questions: { en: 'How was {company}?', 'pt-BR': 'Como foi?' },
              locale: 'en',
              followUp: { low: { en: 'What went wrong?' }, high: { es: '¿Qué te gustó?' } },
              thanks: { detractor: { 'pt-BR': 'Obrigado' } },
              minSample: 12,
              resultShards: 4,
              surveyValidityDays: 30,
              handOff: ['whatsapp'],
              attempts: [{ channel: 'email', afterMinutes: 0 }],
              cases: { open: { below: 3 }, deadlineHours: 8, whatsapp: true },
            },
            { id: 91, slug: 'casos', indicator: 'nps', classes: [], channels: ['sms'], cases: { open: 'comment' } },
          ],
        },
      ],
    }),
    process.env,
  ).tenants;
  return config!;
};

describe('the settings reader', () => {
  it('answers what the schemas make of the same items, for every demo tenant with every optional field set, a logo and a rotated secret', async () => {
    for (const demoTenant of demo.tenants) {
      const id = 700_000 + Math.floor(Math.random() * 100_000);
      await tenantService.applyTenantConfig(fullTenant(id, demoTenant));
      await putBrand(id, {
        name: 'Marca',
        colour: '#145a32',
        senderName: 'Marca',
        logo: { file: `${'a'.repeat(64)}.png`, contentType: 'image/png' },
      });
      const webhook = ((demoTenant.delivery as { webhooks?: { url: string }[] }).webhooks ?? [])[0];
      if (webhook)
        await rotateSigning(id, eventEndpoint(webhook.url.replace(/\$\{OUTBOX_URL:-([^}]*)\}/, '$1')), {
          previousUntil: '2026-12-01T00:00:00.000Z',
          now: '2026-11-24T00:00:00.000Z',
        });

      const read = await readSettings(id);
      expect(read).toEqual(await oracle(id));
      expect(read.journeys.find((journey) => journey.id === 91)?.cases).toEqual({ open: 'comment', deadlineHours: 24, whatsapp: false });
      expect([read.locale, read.timeZone]).toEqual(['es', 'America/Bogota']);
    }
  });

  it("gives a field an item left out (written before the field existed) the schema's default", async () => {
    const id = 800_000 + Math.floor(Math.random() * 100_000);
    const { client, tableName } = db();
    const put = (item: Item) => client.send(new PutCommand({ TableName: tableName, Item: { pk: keys.config(id), ...item } }));
    await put({
      sk: keys.configItem('JOURNEY', 1),
      [TABLE.entityAttribute]: 'JOURNEY',
      kind: 'JOURNEY',
      id: 1,
      slug: 'antiga',
      indicator: 'nps',
      classes: [],
      channels: ['sms'],
      cases: { open: 'detractor' },
    });
    await put({ sk: keys.privacyConfig, [TABLE.entityAttribute]: 'PRIVACY', kind: 'PRIVACY' });

    const read = await readSettings(id);
    expect(read).toEqual(await oracle(id));
    expect(read.journeys[0]).toEqual({
      id: 1,
      slug: 'antiga',
      indicator: 'nps',
      classes: [],
      channels: ['sms'],
      resurveyWindowDays: null,
      surveyValidityDays: 7,
      handOff: [],
      cases: { open: 'detractor', deadlineHours: 24, whatsapp: false },
    });
    expect(read.privacy).toEqual({ retentionDays: null });
    expect(recordOf({ pk: 'a', sk: 'b', [TABLE.entityAttribute]: 'GROUP', kind: 'GROUP', id: 2, name: 'Gerentes' })).toEqual({
      id: 2,
      name: 'Gerentes',
    });
  });
});
