import type { UserRecord } from '../access/ports.js';
import { digestWords } from '../digest/email.js';
import type { DigestFigures, DigestPeriod } from '../digest/figures.js';
import { html } from '../html.js';
import { alertTranslator } from '../i18n/messages.js';
import type { Locale } from '../locale.js';
import { DEFAULT_DIGEST, DIGEST_CHOICES, DIGESTS_DEFAULTS, type DigestChoice } from '../digest/choices.js';
import { APP_DIGEST_PATH } from '../session/paths.js';
import type { Settings } from '../settings/settings.js';
import type { WebAnswer } from '../web-answer.js';
import { adminHome } from './admin-sections.js';
import { layout, tenantLookOf } from './layout.js';

/**
 * The digest in the workspace (`/app/digest`, where the digest e-mail links): the same figures in the same words, each
 * case a link to its page. A pure function of the figures; the user's scope is the figures'.
 */
export function digestPage(input: {
  figures: DigestFigures;
  settings: Settings;
  user: UserRecord;
  base: string;
  /** Just saved the user's choice of digest (the form's post came back here), or refused a choice that is none of them. */
  choice?: 'saved' | 'invalid';
}): WebAnswer {
  const { figures, settings, user, base } = input;
  const look = tenantLookOf(settings);
  const words = digestWords({ figures, company: look.brand.name, locale: look.locale, timeZone: look.timeZone });
  const cases = [figures.cases.open, figures.cases.overdue];
  const list = (items: string[]) => items.length > 0 && html`<ul>${items.map((item) => html`<li>${item}</li>`)}</ul>`;
  const body = html`<h1>${words.subject}</h1><p>${words.intro}</p>
${words.journeys.map(
  (j) =>
    html`<section><h2>${j.name}</h2><p><strong>${j.score}</strong></p>${list(j.lines)}${list(j.best.map((b) => `+ ${b}`))}${list(
      j.worst.map((w) => `- ${w}`),
    )}${j.few && html`<p>${j.few}</p>`}</section>`,
)}
${words.themes && html`<section><h2>${words.themes.title}</h2><ul>${words.themes.items.map((i) => html`<li><strong>${i.theme}</strong>${i.example && html`<br>${i.example}`}</li>`)}</ul></section>`}
${words.cases.map(
  (c, at) =>
    html`<section><h2>${c.title}</h2>${
      cases[at]!.length
        ? html`<ul>${cases[at]!.map((item, i) => html`<li><a href="${base + new URL(item.link, 'https://x').pathname}">${c.lines[i]!}</a></li>`)}</ul>`
        : html`<p>${c.lines[0]!}</p>`
    }</section>`,
)}
${words.more && html`<p>${words.more}</p>`}
${choiceForm(look.locale, user, settings, base, input.choice)}`;
  return {
    status: input.choice === 'invalid' ? 400 : 200,
    html: layout({
      title: words.subject,
      base,
      locale: look.locale,
      brand: look.brand,
      user: user.name,
      adminHome: adminHome(user),
      current: APP_DIGEST_PATH,
      body,
    }),
  };
}

const CHOICE_WORDS = { weekly: 'digest.choiceWeekly', daily: 'digest.choiceDaily', off: 'digest.choiceOff' } as const;

/** The signed-in user's own choice of digest e-mail (weekly, daily or none), posted to this page. */
function choiceForm(locale: Locale, user: UserRecord, settings: Settings, base: string, choice: 'saved' | 'invalid' | undefined) {
  const t = alertTranslator(locale);
  const chosen = user.digest ?? DEFAULT_DIGEST;
  const dailyOff = !(settings.digests?.daily ?? DIGESTS_DEFAULTS.daily);
  return html`<section class="card form">
${choice === 'saved' && html`<p class="saved" role="status">${t('digest.choiceSaved')}</p>`}
${choice === 'invalid' && html`<p class="error" role="alert">${t('digest.choiceInvalid')}</p>`}
<form method="post" action="${base + APP_DIGEST_PATH}"><fieldset><legend>${t('digest.choiceLegend')}</legend>
<div class="checks">${DIGEST_CHOICES.map(
    (choice) =>
      html`<label class="check"><input type="radio" name="digest" value="${choice}"${choice === chosen ? ' checked' : ''}> ${t(CHOICE_WORDS[choice])}</label>`,
  )}</div>${dailyOff && html`<p class="hint">${t('digest.choiceDailyOff')}</p>`}</fieldset>
<div class="actions"><button type="submit">${t('digest.choiceSave')}</button></div></form></section>`;
}

/** A user's choice as the form posts it; undefined for anything else. */
export const postedChoice = (form: URLSearchParams): DigestChoice | undefined =>
  DIGEST_CHOICES.find((choice) => choice === form.get('digest'));

/** The period a page's query names: a week unless it says `day`. */
export const pagePeriod = (query: Record<string, string | undefined>): DigestPeriod => (query.period === 'day' ? 'day' : 'week');
