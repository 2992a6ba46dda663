import type { AlertEmail, AlertWhatsApp, CasePorts } from '../../../shared/cases/ports.js';
import type { CaseDeadlineMessage } from '../../../shared/cases/deadline-message.js';
import type { CaseMessage } from '../../../shared/cases/message.js';
import { AlertNotSent } from '../../../shared/cases/ports.js';
import type { Settings, UserScope } from '../../../shared/tenants/config-schema.js';
import type { TransactionRecord } from '../../../shared/transaction-record.js';
import { memoryCases, memoryCaseUsers, memoryEvents, memoryTimers } from '../../support/memory.js';

/** The cases' world in memory: one tenant, its answered transactions, users, alerts, events and timers. */

export const TENANT = 7;
/** Monday 23 November 2026, 10:00 in São Paulo. */
export const MONDAY_10H = new Date('2026-11-23T13:00:00.000Z');

export const settings = (overrides: Partial<Settings> = {}): Settings => ({
  journeys: [
    {
      id: 1,
      slug: 'loja',
      indicator: 'nps',
      classes: [],
      channels: ['email'],
      resurveyWindowDays: null,
      surveyValidityDays: 7,
      handOff: [],
    },
    {
      id: 2,
      slug: 'entrega',
      indicator: 'nps',
      classes: [],
      channels: ['email'],
      resurveyWindowDays: null,
      surveyValidityDays: 7,
      handOff: [],
      cases: { open: 'detractor', deadlineHours: 4, whatsapp: true },
    },
  ],
  classes: [],
  groups: [],
  delivery: {
    email: { from: 'pesquisa@loja.example' },
    whatsapp: { phoneNumberId: 'pn-1', template: 'survey', language: 'pt_BR', caseAlert: { template: 'case_alert', language: 'pt_BR' } },
  },
  ...overrides,
});

export const USERS: { name: string; scope: UserScope; phone?: string }[] = [
  { name: 'gerente@loja.example', scope: { stores: [3], groups: [] }, phone: '+5511988887777' },
  { name: 'diretora@loja.example', scope: 'all' },
  { name: 'outra@loja.example', scope: { stores: [4], groups: [] } },
];

/** An answered transaction of store 3 on a journey, with its score and comment. */
export function answered(id: number, score: number, comment: string | null, journeyId = 1, version = 1): TransactionRecord {
  return {
    transaction: {
      id,
      transaction_id: `T-${id}`,
      journey_id: journeyId,
      store_id: 3,
      employee_id: 5,
      customer_id: 9,
      amount: null,
      register_date: null,
      params: {},
      rating: { score, comment },
      rating_items: [],
      survey: { status: 'answered', reason: null, attempt_id: 1, channel: 'email' },
      attempts: [],
      created_at: '2026-11-23T12:00:00.000Z',
    },
    journeySlug: journeyId === 1 ? 'loja' : 'entrega',
    customerName: 'Ana Souza',
    surveyContact: 'ana@example.com',
    surveyContacts: { phone: null, email: 'ana@example.com' },
    attemptWaits: [],
    warnings: [],
    answer: { source: 'email', src: 1, answeredAt: '2026-11-23T12:30:00.000Z', version },
    retentionDays: null,
    contactGone: false,
    erased: false,
  };
}

export function caseWorld(config: Settings = settings(), options: { refuseEmail?: boolean } = {}) {
  const cases = memoryCases();
  const transactions = new Map<number, TransactionRecord>();
  const emails: AlertEmail[] = [];
  const whatsapps: AlertWhatsApp[] = [];
  const events = memoryEvents();
  const deadlines = memoryTimers<CaseDeadlineMessage>();
  const quietAlerts = memoryTimers<CaseMessage>();
  const recoveries: number[] = [];
  const ports: CasePorts = {
    cases,
    users: memoryCaseUsers(USERS),
    answers: { transaction: async (_tenantId, id) => structuredClone(transactions.get(id)) },
    settings: async () => config,
    events,
    names: { store: async (_t, id) => `Loja ${id}`, employee: async (_t, id) => `Vendedor ${id}` },
    alerts: {
      email: async (message) => {
        if (options.refuseEmail) throw new AlertNotSent('refused');
        emails.push(message);
      },
      whatsapp: async (message) => {
        whatsapps.push(message);
      },
    },
    baseUrl: 'https://app.example',
    recovery: { request: async (_tenantId, record) => void recoveries.push(record.id) },
    quietAlerts,
    deadlines,
  };
  return { ports, cases, transactions, emails, whatsapps, events, deadlines, quietAlerts, recoveries };
}
