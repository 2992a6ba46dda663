import type { JourneyConfig } from '../settings/journeys.js';
import type { Locale } from '../locale.js';
import { brandColour, safeLogo } from '../brand/brand.js';
import { html, type Colour, type SafeHtml, type SafeUrl } from '../html.js';
import { translator } from '../i18n/messages.js';
import { questionOf, scaleEnds, scoreLabel, scoreName, scoresOf } from './questions.js';

/**
 * The words of a survey on each channel, in the survey's language (shared/i18n/). Pure functions: the delivery
 * service fills them with the attempt's link, the tenant's brand and the customer's first name.
 */

/**
 * The customer's first name as a greeting shows it, or none. A customer created without a name is named by its e-mail,
 * cpf, phone or client id (customers/service.ts), and a greeting must never show those: the survey page is reached by a
 * link that may be forwarded. A word with a digit or an `@` is no one's first name.
 */
export const firstName = (name: string | null | undefined) => {
  const first = (name ?? '').trim().split(/\s+/)[0] ?? '';
  return /[\d@]/.test(first) ? '' : first;
};

/**
 * What a page or a message shows of the tenant: its name, and its colour and logo when it set them (the brand
 * branch's `Brand` fills it).
 */
export interface SurveyBrand {
  name: string;
  colour?: string;
  logoUrl?: string;
}

export interface SurveyEmailInput {
  customerName: string | null;
  brand: SurveyBrand;
  journey: Pick<JourneyConfig, 'question' | 'questions' | 'indicator'>;
  locale: Locale;
  link: string;
  unsubscribeLink: string;
}

/** The survey e-mail's column: at most this wide (fluid below it), and this wide in Outlook for Windows. */
export const SURVEY_WIDTH = 560;

/** The width of a score button and of its cell: 44 px (the tap target) and 1 px either side. */
const BUTTON = 44;

/**
 * A button mail clients draw alike ("bulletproof"): its size and colour on a table cell, the link filling it, since
 * Outlook for Windows (Word's renderer) ignores a link's size, padding and display; and there a VML rounded rectangle,
 * the whole of it the link, in its conditional comment, which other clients skip.
 */
export function emailButton(button: { href: string; label: string; ariaLabel?: string; width: number; colour: Colour }): SafeHtml {
  const { href, label, ariaLabel, width, colour } = button;
  return html`<!--[if mso]><v:roundrect xmlns:v="urn:schemas-microsoft-com:vml" xmlns:w="urn:schemas-microsoft-com:office:word" href="${href}" style="height:${BUTTON}px;v-text-anchor:middle;width:${width}px" arcsize="14%" stroke="f" fillcolor="${colour}"><w:anchorlock/><center style="color:#ffffff;font-family:Arial,sans-serif;font-size:17px;font-weight:bold">${label}</center></v:roundrect><![endif]--><!--[if !mso]><!--><table role="presentation" cellpadding="0" cellspacing="0"><tr><td align="center" valign="middle" width="${width}" height="${BUTTON}" bgcolor="${colour}" style="width:${width}px;height:${BUTTON}px;border-radius:6px;background:${colour}"><a href="${href}" style="display:block;width:${width}px;line-height:${BUTTON}px;border-radius:6px;color:#ffffff;font:bold 17px/${BUTTON}px Arial,sans-serif;text-decoration:none;text-align:center"${ariaLabel && html` aria-label="${ariaLabel}"`}>${label}</a></td></tr></table><!--<![endif]-->`;
}

/**
 * An e-mail's column as every mail client draws it: fluid, 100% wide up to `width` px (`max-width`), and for Outlook for
 * Windows, which ignores max-width, inside a fixed table of that width in a conditional comment (a "ghost table") that
 * every other client skips. `style` is the column's own look beside its width, `rows` its rows.
 */
export function emailColumn(width: number, style: SafeHtml, rows: SafeHtml): SafeHtml {
  return html`<!--[if mso]><table role="presentation" width="${width}" cellpadding="0" cellspacing="0" align="center"><tr><td width="${width}"><![endif]-->
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" bgcolor="#ffffff" style="max-width:${width}px;background:#ffffff;${style}">${rows}</table>
<!--[if mso]></td></tr></table><![endif]-->`;
}

/** Scores in rows of at most 6, balanced (0-10: 6 + 5; 1-7: 4 + 3): each row fits 280 px, a 320 px screen's column. */
function scoreRows(scores: number[]): number[][] {
  if (scores.length <= 6) return [scores];
  const first = Math.ceil(scores.length / 2);
  return [scores.slice(0, first), scores.slice(first)];
}

/**
 * The survey e-mail: subject, HTML and text, in the survey's language. The HTML is a single-column table layout
 * with inline styles, the form mail clients render alike (Gmail, Outlook, Apple Mail), at most SURVEY_WIDTH (560) px wide
 * and fluid below that (emailColumn: Outlook's ghost table) (320 px screens scroll nowhere); one 44 x 44 px button per score opens the page with that score
 * chosen. The brand's colour paints the buttons; its logo heads the message when set.
 */
export function surveyEmail(input: SurveyEmailInput): { subject: string; html: string; text: string } {
  const t = translator(input.locale);
  const company = input.brand.name;
  const name = firstName(input.customerName);
  const greeting = t('email.greeting', { named: name ? 'yes' : 'no', name });
  const question = questionOf({ journey: input.journey, company, locale: input.locale, t });
  const { indicator } = input.journey;
  const scores = scoresOf(indicator);
  const [low, high] = scaleEnds(indicator, t);
  const colour = brandColour(input.brand.colour);
  const logo = safeLogo(input.brand.logoUrl)?.url;
  const subject = t('email.subject', { company });
  const button = (score: number) =>
    html`<td align="center" style="padding:2px 1px">${emailButton({
      href: `${input.link}?score=${score}`,
      label: scoreLabel(indicator, score, t),
      ariaLabel: t('email.scoreLabel', { score: scoreName(indicator, score, t) }),
      width: BUTTON,
      colour,
    })}</td>`;
  const rows = scoreRows(scores).map(
    (row, at) =>
      html`${at > 0 && '\n'}<table role="presentation" cellpadding="0" cellspacing="0" align="center" style="margin:0 auto"><tr>${row.map(button)}</tr></table>`,
  );
  const end = (score: number, label: string) => t('scale.ends', { score: scoreLabel(indicator, score, t), label });
  const answers = html`${rows}
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="font:13px Arial,sans-serif;color:#4b5563"><tr>
<td align="left" style="padding-top:6px">${end(scores[0]!, low)}</td><td align="right" style="padding-top:6px">${end(scores.at(-1)!, high)}</td></tr></table>
<p style="margin:20px 0 0"><a href="${input.link}" style="color:${colour};display:inline-block;padding:12px 0">${t('email.openSurvey')}</a></p>`;
  return brandedEmail(input, { subject, greeting, intro: t('email.intro', { company }), question, answers, colour, logo });
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

/**
 * The survey SMS in the survey's language: one segment of at most 160 GSM-7 characters, the link whole; the
 * company's name shortened to fit.
 */
export function surveySms(input: { company: string; link: string; locale: Locale }): string {
  const t = translator(input.locale);
  const build = (company: string) => toGsm7(t('sms.text', { company, link: input.link }));
  let company = toGsm7(input.company).trim();
  let text = build(company);
  while (text.length > SMS_MAX && company.length > 0) {
    company = company.slice(0, -1).trimEnd();
    text = build(company);
  }
  if (!company || text.length > SMS_MAX) text = toGsm7(t('sms.short', { link: input.link }));
  return text;
}

/**
 * The recovery survey's e-mail ("Did we solve it?"): the survey e-mail's layout with two 44 px buttons, yes and
 * no, each opening the recovery page with its answer chosen (nothing is recorded until the customer sends it).
 */
export function recoveryEmail(input: SurveyEmailInput): { subject: string; html: string; text: string } {
  const t = translator(input.locale);
  const company = input.brand.name;
  const name = firstName(input.customerName);
  const greeting = t('email.greeting', { named: name ? 'yes' : 'no', name });
  const question = t('recovery.question', { company });
  const colour = brandColour(input.brand.colour);
  const logo = safeLogo(input.brand.logoUrl)?.url;
  const subject = t('recovery.subject', { company });
  const button = (solved: 'yes' | 'no') =>
    html`<td align="center" style="padding:2px 4px">${emailButton({
      href: `${input.link}?solved=${solved}`,
      label: t(solved === 'yes' ? 'score.yes' : 'score.no'),
      width: 2 * BUTTON,
      colour,
    })}</td>`;
  const answers = html`<table role="presentation" cellpadding="0" cellspacing="0" align="center" style="margin:0 auto"><tr>${button('yes')}${button('no')}</tr></table>`;
  return brandedEmail(input, { subject, greeting, intro: t('recovery.intro', { company }), question, answers, colour, logo });
}

/**
 * The layout both survey e-mails share: the brand's name (and logo) on its colour, the greeting, the introduction, the
 * question and its answers (buttons that open the page), and the unsubscribe footer; the text part says the same.
 */
function brandedEmail(
  input: SurveyEmailInput,
  parts: {
    subject: string;
    greeting: string;
    intro: string;
    question: string;
    answers: SafeHtml;
    colour: Colour;
    logo: SafeUrl | undefined;
  },
): { subject: string; html: string; text: string } {
  const t = translator(input.locale);
  const { subject, greeting, intro, question, answers, colour, logo } = parts;
  const company = input.brand.name;
  const document = html`<!doctype html>
<html lang="${input.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${subject}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6"><tr><td align="center" style="padding:16px 8px">
${emailColumn(
  SURVEY_WIDTH,
  html`border-radius:8px;border-top:4px solid ${colour}`,
  html`<tr><td style="padding:16px 12px 0;font:bold 17px/1.4 Arial,sans-serif;color:#374151">${logo && html`<img src="${logo}" alt="" height="40" style="display:block;max-height:40px;max-width:160px;margin:0 0 8px;border:0">`}${company}</td></tr>
<tr><td style="padding:12px 12px 20px;font:16px/1.5 Arial,sans-serif;color:#1f2937">
<p style="margin:0 0 12px">${greeting}</p>
<p style="margin:0 0 16px">${intro}</p>
<p style="margin:0 0 12px;font-weight:bold">${question}</p>
${answers}
</td></tr>
<tr><td style="padding:12px;border-top:1px solid #e5e7eb;font:13px/1.5 Arial,sans-serif;color:#4b5563">
${t('email.unsubscribeQuestion')} <a href="${input.unsubscribeLink}" style="color:#374151;display:inline-block;padding:13px 0">${t('email.unsubscribeLink')}</a>
</td></tr>`,
)}
</td></tr></table></body></html>`;
  const text = [
    greeting,
    '',
    intro,
    '',
    question,
    t('email.answerAt', { link: input.link }),
    '',
    `${t('email.unsubscribeQuestion')} ${input.unsubscribeLink}`,
  ].join('\n');
  return { subject, html: document.toString(), text };
}

/** The recovery survey's SMS: one GSM-7 segment, the link whole, the company's name shortened to fit. */
export function recoverySms(input: { company: string; link: string; locale: Locale }): string {
  const t = translator(input.locale);
  const build = (company: string) => toGsm7(t('recovery.sms', { company, link: input.link }));
  let company = toGsm7(input.company).trim();
  let text = build(company);
  while (text.length > SMS_MAX && company.length > 0) {
    company = company.slice(0, -1).trimEnd();
    text = build(company);
  }
  if (!company || text.length > SMS_MAX) text = toGsm7(t('recovery.smsShort', { link: input.link }));
  return text;
}
