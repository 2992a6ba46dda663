import type { UserRecord } from '../access/ports.js';
import { digestWords } from '../digest/email.js';
import type { DigestFigures, DigestPeriod } from '../digest/figures.js';
import { html } from '../html.js';
import { alertTranslator } from '../i18n/messages.js';
import type { Locale } from '../locale.js';
import { DEFAULT_DIGEST, DIGEST_CHOICES, DIGESTS_DEFAULTS, type DigestChoice } from '../digest/choices.js';
import { APP_DIGEST_PATH, APP_RESULTS_PATH } from '../session/paths.js';
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
  const cases = [figures.cases.overdue, figures.cases.open];
  const local = (link: string) => base + new URL(link, 'https://x').pathname + new URL(link, 'https://x').search;
  const list = (items: string[]) => items.length > 0 && html`<ul>${items.map((item) => html`<li>${item}</li>`)}</ul>`;
  const rows = (title: string, items: { line: string; attention: boolean }[]) =>
    html`<h3>${title}</h3><ul class="digest-rows">${items.map((r) =>
      r.attention ? html`<li class="attention"><strong>${r.line}</strong> (${words.attention})</li>` : html`<li>${r.line}</li>`,
    )}</ul>`;
  const first = words.first;
  const body = html`<h1>${words.subject}</h1><p>${words.intro}</p>
<section class="card first"><p><strong>${first.line}</strong>${first.link && html` <a href="${local(first.link)}">${first.open}</a>`}</p></section>
${words.quiet && html`<section><p>${words.quiet.line}</p>${list(words.quiet.weeks)}</section>`}
${words.journeys.map(
  (j) =>
    html`<section><h2>${j.name}</h2><p><strong>${j.score}</strong></p>${list(j.lines)}${j.regions && rows(j.regions.title, j.regions.rows)}${
      j.stores.rows.length > 0 && rows(j.stores.title, j.stores.rows)
    }${j.stores.more && html`<p><a href="${base + APP_RESULTS_PATH}">${j.stores.more}</a></p>`}${list(j.best.map((b) => `+ ${b}`))}${list(
      j.worst.map((w) => `- ${w}`),
    )}${j.few && html`<p>${j.few}</p>`}</section>`,
)}
<section><h2>${words.themes.title}</h2>${words.themes.none && html`<p>${words.themes.none}</p>`}${
    words.themes.items.length > 0 &&
    html`<ul>${words.themes.items.map((i) => html`<li><strong>${i.theme}</strong>${i.examples.map((e) => html`<br>${e}`)}</li>`)}</ul>`
  }${words.praise && html`<h3>${words.praise.title}</h3><p>${words.praise.line}</p>`}</section>
${words.cases.map(
  (c, at) =>
    html`<section><h2>${c.title}</h2>${
      cases[at]!.length
        ? html`<ul>${cases[at]!.map((item, i) => html`<li><a href="${local(item.link)}">${c.lines[i]!}</a></li>`)}</ul>`
        : html`<p>${c.lines[0]!}</p>`
    }</section>`,
)}
${words.more && html`<p>${words.more}</p>`}
${choiceForm({ locale: look.locale, user, settings, base, choice: input.choice })}`;
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
function choiceForm({
  locale,
  user,
  settings,
  base,
  choice,
}: {
  locale: Locale;
  user: UserRecord;
  settings: Settings;
  base: string;
  choice: 'saved' | 'invalid' | undefined;
}) {
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

/** What a page's query asks for: its period, or its days (`from` and `to`, as GET /public/digest takes them). */
export const pageRequest = (query: Record<string, string | undefined>) => ({
  period: pagePeriod(query),
  ...(query.from !== undefined || query.to !== undefined ? { from: query.from, to: query.to } : {}),
});
