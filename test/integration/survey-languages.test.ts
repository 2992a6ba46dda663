import { beforeAll, describe, expect, inject, it } from 'vitest';
import { handler as dispatcher } from '../../functions/queue/survey-dispatcher.js';
import { invoke } from '../../infra/local/invoke.js';
import { putDelivery, putSettings } from '../../shared/adapters/tenant-repository.js';
import type { Locale } from '../../shared/locale.js';
import { inProcess } from '../support/api.js';
import { sqsEvent, usePrivateQueue } from '../support/queues.js';
import { DEMO_SETTINGS, newTenant, type TestTenant } from '../support/tenant.js';
import { outboxOf, emailsOf } from '../support/mailbox.js';

/**
 * A survey speaks the customer's language: the customer's locale, else the journey's, else the tenant's, else
 * pt-BR; the e-mail, the page it opens (with the class questions the tenant wrote for that language, or the built-in
 * ones) and the WhatsApp template all agree.
 */
const dispatch = usePrivateQueue('surveyDispatch');
const api = inProcess('public');
const [sesUrl, outboxUrl] = [inject('sesUrl'), inject('outboxUrl')];
let tenant: TestTenant;
let plain: TestTenant;
let spanish: TestTenant;
let unique = 0;

const DELIVERY_QUESTION = {
  'pt-BR': 'A entrega chegou no prazo?',
  es: '¿La entrega llegó a tiempo?',
  en: 'Did the delivery arrive on time?',
};

beforeAll(async () => {
  [tenant, plain, spanish] = await Promise.all([newTenant(), newTenant(), newTenant()]);
  await putSettings(spanish.tenantId, { ...DEMO_SETTINGS, locale: 'es' });
  await putSettings(tenant.tenantId, {
    ...DEMO_SETTINGS,
    locale: 'en',
    classes: DEMO_SETTINGS.classes.map((c) => (c.id === 3 ? { ...c, question: DELIVERY_QUESTION } : c)),
    journeys: [
      ...DEMO_SETTINGS.journeys,
      { ...DEMO_SETTINGS.journeys.find((j) => j.slug === 'ecommerce')!, id: 9, slug: 'ecommerce-es', locale: 'es' },
    ],
  });
  for (const t of [tenant, plain, spanish])
    await putDelivery(t.tenantId, {
      quietHours: null,
      email: { from: 'pesquisa@loja.example' },
      whatsapp: {
        phoneNumberId: 'pn-test',
        template: 'pesquisa_satisfacao',
        language: 'pt_BR',
        templates: { es: { template: 'encuesta_satisfaccion', language: 'es' }, en: { template: 'satisfaction_survey', language: 'en' } },
      },
    });
});

/** A customer of the tenant, created through the customer API with its `locale` when given. */
async function customer(of: TestTenant, contact: Record<string, string>, locale?: Locale): Promise<number> {
  const body = { name: 'Lucía Gómez', ...contact, ...(locale ? { locale } : {}) };
  const res = await api({ method: 'POST', path: '/public/customer', key: of.key, body });
  expect(res.status, res.text).toBe(200);
  return res.body.id as number;
}

/** Registers a sale for the customer and delivers its survey; the e-mail or WhatsApp message it sent. */
async function survey(of: TestTenant, journey: string, customerId: number) {
  const res = await api({
    method: 'POST',
    path: '/public/transaction',
    key: of.key,
    body: { store_id: 1, employee_id: 1, journey, customer_id: customerId },
  });
  expect(res.status, res.text).toBe(201);
  const [message] = await dispatch.drain();
  const delivered = await invoke('surveyDispatcher', dispatcher, sqsEvent([message], { queue: 'SurveyDispatchQueue' }));
  expect(delivered.batchItemFailures).toEqual([]);
}

interface Mail {
  destination: { to: string[] };
  subject: string;
  body: { html: string; text: string };
}
const mailTo = async (address: string) => {
  const emails = await emailsOf<Mail>(sesUrl);
  const mail = emails.find((e) => e.destination.to.includes(address));
  expect(mail, `an e-mail to ${address}`).toBeDefined();
  return mail!;
};

/** The e-mail a customer of this locale gets, and the page its score-4 button opens. */
async function mailAndPage(of: TestTenant, journey: string, locale?: Locale) {
  const email = `lang-${Date.now()}-${unique++}@example.com`;
  await survey(of, journey, await customer(of, { email }, locale));
  const mail = await mailTo(email);
  const link = /(http\S+\/s\/[\w-]{44})/.exec(mail.body.text)![1]!;
  const page = await api({ path: `${new URL(link).pathname}`, query: { score: '4' } });
  expect(page.status).toBe(200);
  return { mail, page: page.text };
}

describe('the language of a survey', () => {
  it('speaks Spanish to a customer whose locale is es, in the e-mail and the page, with the class questions in Spanish', async () => {
    const { mail, page } = await mailAndPage(tenant, 'ecommerce', 'es');
    expect(mail.subject).toMatch(/^¿Cómo fue su experiencia con .+\?$/);
    expect(mail.body.html).toContain('<html lang="es">');
    expect(mail.body.text).toContain('¡Hola, Lucía!');
    expect(page).toContain('<html lang="es">');
    expect(page).toContain('¿Qué tan satisfecho está con la atención de');
    expect(page).toContain('¿La entrega llegó a tiempo?');
    // Class 4 (Preco, nps) has no question of its own: the built-in one on its label, in Spanish.
    expect(page).toContain('De 0 a 10, ¿cómo evalúa: Preco?');
    // The score tapped in the e-mail is chosen, and its bucket's follow-up is the comment's label.
    expect(page).toMatch(/value="4" class="b-high" checked/);
    expect(page).toContain('<span class="fu-high">¿Qué fue lo que más le gustó?</span>');
    expect(page).not.toMatch(/Pesquisa|Enviar resposta|Quer contar mais/);
  });

  it("speaks the tenant's English to a customer without a locale on a journey without one", async () => {
    const { mail, page } = await mailAndPage(tenant, 'ecommerce');
    expect(mail.subject).toMatch(/^How was your experience with .+\?$/);
    expect(mail.body.html).toContain('<html lang="en">');
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('Did the delivery arrive on time?');
    expect(page).toContain('Send answer');
  });

  it("prefers the journey's locale to the tenant's", async () => {
    const { mail, page } = await mailAndPage(tenant, 'ecommerce-es');
    expect(mail.body.html).toContain('<html lang="es">');
    expect(page).toContain('<html lang="es">');
  });

  it('stays pt-BR for a tenant, journey and customer without a locale', async () => {
    const { mail, page } = await mailAndPage(plain, 'ecommerce');
    expect(mail.subject).toMatch(/^Como foi sua experiência com .+\?$/);
    expect(mail.body.html).toContain('<html lang="pt-BR">');
    expect(page).toContain('<html lang="pt-BR">');
    expect(page).toContain('Quão fácil foi: Entrega?');
    expect(page).toContain('Enviar resposta');
  });

  it("sends the WhatsApp template of the survey's language, in the tenant's language", async () => {
    const phone = `+55119${String(Date.now() % 10_000_000).padStart(7, '0')}${unique++ % 10}`.slice(0, 14);
    await survey(tenant, 'loja', await customer(tenant, { phone }));
    const messages = await outboxOf<{
      to: string;
      text: string;
      template?: { name: string; language: string };
    }>(outboxUrl);
    const sent = messages.find((m) => m.to === phone);
    expect(sent?.template).toEqual({ name: 'satisfaction_survey', language: 'en' });
  });

  it("keeps the tenant's language after an admin change of something else: the next survey is still in Spanish", async () => {
    // Prepare: the admin changes the brand's colour alone, as the admin page does (read, change, put back).
    const read = await api({ path: '/public/admin/config', key: spanish.adminKey });
    const put = await api({
      method: 'PUT',
      path: '/public/admin/config',
      key: spanish.adminKey,
      body: { ...read.body, brand: { ...read.body.brand, colour: '#0b5cad' } },
      headers: { 'if-match': read.headers.etag! },
    });
    expect(put.status, put.text).toBe(200);

    // Act
    const { mail, page } = await mailAndPage(spanish, 'ecommerce');

    // Assess
    expect(mail.subject).toMatch(/^¿Cómo fue su experiencia con .+\?$/);
    expect(mail.body.html).toContain('<html lang="es">');
    expect(page).toContain('<html lang="es">');
  });
});
