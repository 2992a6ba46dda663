import { describe, expect, inject, it } from 'vitest';
import { digestSending } from '../../shared/adapters/wiring/digest.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { addDays } from '../../shared/dates.js';
import { weekOf } from '../../shared/results/groupings.js';
import { APP_DIGEST_PATH } from '../../shared/session/paths.js';
import { overHttp } from '../support/api.js';
import { openedCase, REGIONAL_STORES, regionalTenant, SUL } from '../support/regional-digest.js';
import { outboxOf } from '../support/mailbox.js';

/**
 * The digest in Slack and Teams (issue 60 §3: "the same content, shorter"), in pt-BR and in es, as the local receiver
 * got it: a tenant with answers today at three stores of two regions, an overdue case at the first store and an open
 * one at the second; a Slack endpoint of region Sul's two stores and a Teams endpoint of every store, each taking the
 * digest. Each message opens with what to do first (the overdue case, by its short number and store), names its
 * stores (those needing attention first, marked), no store outside its own, and each case by number, store, age and
 * owner, in the tenant's language.
 */
const api = overHttp('public');
const chatbot = overHttp('chatbot');
const outboxUrl = inject('outboxUrl');

const WORDS = {
  'pt-BR': {
    title: 'Resumo semanal',
    first: (n: number | null, owner: string) =>
      `Primeiro: o caso #${n} em ${REGIONAL_STORES[0]} está vencido, aberto hoje (${owner}). Ligue para o cliente.`,
    case: (n: number | null, store: string, owner: string) => `#${n} em ${store}: nota 2, aberto hoje, ${owner}, prazo `,
    counts: 'Casos atrasados: 1 · Casos abertos: 1',
    attention: `! ${REGIONAL_STORES[2]}: -100 (3 respostas), sem período para comparar (pede atenção)`,
    open: 'Ver o resumo no painel',
  },
  es: {
    title: 'Resumen semanal',
    first: (n: number | null, owner: string) =>
      `Primero: el caso #${n} en ${REGIONAL_STORES[0]} está vencido, abierto hoy (${owner}). Llame al cliente.`,
    case: (n: number | null, store: string, owner: string) => `#${n} en ${store}: nota 2, abierto hoy, ${owner}, vence `,
    counts: 'Casos vencidos: 1 · Casos abiertos: 1',
    attention: `! ${REGIONAL_STORES[2]}: -100 (3 respuestas), sin período para comparar (pide atención)`,
    open: 'Ver el resumen en el panel',
  },
} as const;

interface Received {
  channel: string;
  to: string;
  text: string;
}

/** The message the local receiver got at `url`, waited for (a quarter of a second between looks, at most a minute). */
async function receivedAt(url: string): Promise<any> {
  const until = Date.now() + 60_000;
  for (;;) {
    const messages = await outboxOf<Received>(outboxUrl);
    const message = messages.find((m) => m.channel === 'chat' && `${outboxUrl}${m.to}` === url);
    if (message) return JSON.parse(message.text);
    if (Date.now() > until) throw new Error(`No chat message at ${url} within a minute`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A Slack message's title and lines, as its reader sees them. */
const slackLines = (message: any): { title: string; lines: string[]; open: string } => ({
  title: message.blocks[0].text.text,
  lines: message.blocks.filter((b: any) => b.type === 'section').map((b: any) => b.text.text),
  open: message.blocks.at(-1).elements[0].text.text,
});
/** A Teams card's title and lines, as its reader sees them. */
const teamsLines = (message: any): { title: string; lines: string[]; open: string } => {
  const card = message.attachments[0].content;
  return {
    title: card.body[0].text,
    lines: card.body.slice(1).map((b: any) => b.inlines[0].text),
    open: card.actions[0].title,
  };
};

describe("the digest in a team's chat", () => {
  for (const language of ['pt-BR', 'es'] as const) {
    it(`${language}: Slack and Teams name the first thing to do, their stores and each case, in the tenant's language`, async () => {
      // Prepare
      const words = WORDS[language];
      const stamp = `${Date.now()}-${language}`;
      const url = (name: string) => `${outboxUrl}/chat/digest-${stamp}-${name}`;
      const { tenant, ids, today } = await regionalTenant(api, {
        locale: language,
        chat: (ids) => [
          { kind: 'slack', url: url('slack'), events: ['digest'], stores: [ids[0]!, ids[1]!] },
          { kind: 'teams', url: url('teams'), events: ['digest'] },
        ],
      });
      const owner = `regional-${stamp}@example.com`;
      await tenantService.createUser(tenant.tenantId, { name: owner, scope: SUL });
      const late = await openedCase(api, chatbot, tenant, ids[0]!, { overdue: true });
      const open = await openedCase(api, chatbot, tenant, ids[1]!);

      // Act: this week's digest (today in it) to each endpoint, as the digest queue's consumer sends it.
      const run = { version: 1 as const, tenantId: tenant.tenantId, period: 'week' as const, from: weekOf(today) };
      expect(await digestSending.handle({ ...run, chat: url('slack') })).toBe('sent');
      expect(await digestSending.handle({ ...run, chat: url('teams') })).toBe('sent');
      const [slack, teams] = [slackLines(await receivedAt(url('slack'))), teamsLines(await receivedAt(url('teams')))];

      // Assess: both say the same first thing and the same cases, each of its own stores.
      for (const message of [slack, teams]) {
        expect(message.title).toContain(words.title);
        expect(message.lines[0]).toBe(words.first(late.number, owner));
        expect(message.lines).toContain(words.counts);
        expect(message.lines).toContainEqual(expect.stringContaining(words.case(late.number, REGIONAL_STORES[0], owner)));
        expect(message.lines).toContainEqual(expect.stringContaining(words.case(open.number, REGIONAL_STORES[1], owner)));
        expect(message.open).toBe(words.open);
        for (const store of REGIONAL_STORES.slice(0, 2))
          expect(message.lines).toContainEqual(expect.stringMatching(new RegExp(`^[•!] ${store}: `)));
      }
      // Slack's endpoint takes region Sul's stores: the other region's store is nowhere in it. Teams' takes every store,
      // the lowest first, marked.
      expect(JSON.stringify(slack)).not.toContain(REGIONAL_STORES[2]);
      expect(teams.lines).toContain(words.attention);
      expect(teams.lines.indexOf(words.attention)).toBeLessThan(
        teams.lines.findIndex((line) => line.startsWith(`• ${REGIONAL_STORES[0]}`)),
      );
      expect(JSON.stringify(await receivedAt(url('slack')))).toContain(
        `${APP_DIGEST_PATH}?period=week&from=${weekOf(today)}&to=${addDays(weekOf(today), 6)}`,
      );
    }, 90_000);
  }
});
