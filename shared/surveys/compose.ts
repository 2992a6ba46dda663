import { INDICATORS, type Indicator, type JourneyConfig } from '../tenants/config-schema.js';

/**
 * The words of a survey on each channel, in pt-BR. Pure functions: the delivery service fills them with the
 * attempt's link, the store's name and the customer's first name.
 */

/** Escapes text for HTML content and attribute values. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export const firstName = (name: string | null | undefined) => (name ?? '').trim().split(/\s+/)[0] ?? '';

/** The journey's main question: its own, or its indicator's usual one. */
export function questionOf(journey: Pick<JourneyConfig, 'question' | 'indicator'>, store: string): string {
  if (journey.question) return journey.question.replaceAll('{loja}', store);
  const questions: Record<Indicator, string> = {
    nps: `Em uma escala de 0 a 10, o quanto você recomendaria ${store} a um amigo ou familiar?`,
    csat: `Qual a sua satisfação com o atendimento de ${store}?`,
    csat5Stars: `Quantas estrelas você dá para ${store}?`,
    ces: `Foi fácil resolver o que você precisava com ${store}?`,
    binary: `Você ficou satisfeito com ${store}?`,
  };
  return questions[journey.indicator];
}

/** The labels of the ends of a scale, as the page and the e-mail show them. */
export const SCALE_ENDS: Record<Indicator, [string, string]> = {
  nps: ['Nada provável', 'Muito provável'],
  csat: ['Muito insatisfeito', 'Muito satisfeito'],
  csat5Stars: ['1 estrela', '5 estrelas'],
  ces: ['Muito difícil', 'Muito fácil'],
  binary: ['Não', 'Sim'],
};

export const scoresOf = (indicator: Indicator) => {
  const { min, max } = INDICATORS[indicator];
  return Array.from({ length: max - min + 1 }, (_, i) => min + i);
};

/** How a score reads on a button: binary answers are words. */
export const scoreLabel = (indicator: Indicator, score: number) => (indicator === 'binary' ? (score ? 'Sim' : 'Não') : String(score));

export interface SurveyEmailInput {
  customerName: string | null;
  store: string;
  journey: Pick<JourneyConfig, 'question' | 'indicator'>;
  link: string;
  unsubscribeLink: string;
}

/**
 * The survey e-mail: subject, HTML and text. The HTML is a single-column table layout with inline styles, the form
 * mail clients render alike (Gmail, Outlook, Apple Mail); one button per score opens the page with that score chosen.
 */
export function surveyEmail(input: SurveyEmailInput): { subject: string; html: string; text: string } {
  const name = firstName(input.customerName);
  const greeting = name ? `Olá, ${name}!` : 'Olá!';
  const question = questionOf(input.journey, input.store);
  const scores = scoresOf(input.journey.indicator);
  const [low, high] = SCALE_ENDS[input.journey.indicator];
  const subject = `Como foi sua experiência com ${input.store}?`;
  const button = (score: number) =>
    `<td align="center" style="padding:2px"><a href="${escapeHtml(`${input.link}?score=${score}`)}" ` +
    `style="display:inline-block;min-width:28px;padding:10px 4px;border-radius:6px;background:#0b5cad;color:#ffffff;` +
    `font:bold 16px Arial,sans-serif;text-decoration:none" aria-label="Nota ${score}">${escapeHtml(scoreLabel(input.journey.indicator, score))}</a></td>`;
  const html = `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6"><tr><td align="center" style="padding:16px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px">
<tr><td style="padding:24px;font:16px/1.5 Arial,sans-serif;color:#1f2937">
<p style="margin:0 0 12px">${escapeHtml(greeting)}</p>
<p style="margin:0 0 16px">Obrigado por escolher <strong>${escapeHtml(input.store)}</strong>. Leva só alguns segundos:</p>
<p style="margin:0 0 16px;font-weight:bold">${escapeHtml(question)}</p>
${
  scores.length <= 11
    ? `<table role="presentation" cellpadding="0" cellspacing="0" width="100%"><tr>${scores.map(button).join('')}</tr></table>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="font:12px Arial,sans-serif;color:#4b5563"><tr>
<td align="left" style="padding-top:4px">${escapeHtml(low)}</td><td align="right" style="padding-top:4px">${escapeHtml(high)}</td></tr></table>`
    : ''
}
<p style="margin:20px 0 0">Ou responda em: <a href="${escapeHtml(input.link)}" style="color:#0b5cad">${escapeHtml(input.link)}</a></p>
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e5e7eb;font:12px/1.5 Arial,sans-serif;color:#4b5563">
Não quer mais receber pesquisas? <a href="${escapeHtml(input.unsubscribeLink)}" style="color:#4b5563">Cancelar inscrição</a>
</td></tr></table></td></tr></table></body></html>`;
  const text = [
    greeting,
    '',
    `Obrigado por escolher ${input.store}. Leva só alguns segundos:`,
    '',
    question,
    `Responda em: ${input.link}`,
    '',
    `Não quer mais receber pesquisas? ${input.unsubscribeLink}`,
  ].join('\n');
  return { subject, html, text };
}

/** The GSM 03.38 basic character set: a text made of these fits 160 characters in one SMS segment. */
const GSM7 = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
export const isGsm7 = (text: string) => [...text].every((c) => GSM7.has(c));
export const SMS_MAX = 160;

/** Text in the GSM-7 alphabet: accents it lacks are dropped (ã -> a), anything else outside it becomes a space. */
export const toGsm7 = (text: string) =>
  [...text]
    .map((c) => (GSM7.has(c) ? c : c.normalize('NFD').replace(/[\u0300-\u036f]/g, '')))
    .map((c) => ([...c].every((x) => GSM7.has(x)) ? c : ' '))
    .join('')
    .replace(/ {2,}/g, ' ');

/** The survey SMS: one segment of at most 160 GSM-7 characters, the link whole; the store's name shortened to fit. */
export function surveySms(input: { store: string; link: string }): string {
  const build = (store: string) => toGsm7(`${store}: como foi sua experiencia? Sua opiniao leva 10 segundos: ${input.link}`);
  let store = toGsm7(input.store).trim();
  let text = build(store);
  while (text.length > SMS_MAX && store.length > 0) {
    store = store.slice(0, -1).trimEnd();
    text = build(store);
  }
  if (!store || text.length > SMS_MAX) text = toGsm7(`Como foi sua experiencia? Responda: ${input.link}`);
  return text;
}
