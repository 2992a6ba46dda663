import { html, raw, type Colour, type SafeHtml } from '../html.js';
import { alertTranslator, type Translate, type AlertKey } from '../i18n/messages.js';
import { timesOf } from '../i18n/times.js';
import type { Locale } from '../locale.js';
import { brandColour } from '../brand/brand.js';
import { emailButton, emailColumn } from '../surveys/compose.js';
import type { DigestCase, DigestFigures, JourneyDigest, RankedRow, ScopeRow } from './figures.js';
import { caseLabel } from '../cases/record.js';

export interface DigestEmailInput {
  figures: DigestFigures;
  company: string;
  /** The brand's colour (checked); the house blue when absent or unreadable. */
  colour?: string | undefined;
  locale: Locale;
  timeZone: string;
  /** The digest's page in the workspace. */
  link: string;
  /** The reader's one-click unsubscribe page (shared/digest/unsubscribe.ts). */
  unsubscribe: string;
}

/** A store's or a region's line, whether it needs attention, and whether it had answers. */
export interface ScopeWords {
  line: string;
  attention: boolean;
  answered: boolean;
}

/** A digest as words: what to do first, the lines of each journey and its stores, the complaints, the cases (the e-mail's text part, a chat summary, the page). */
export interface DigestWords {
  subject: string;
  intro: string;
  /** What to do first, one sentence, and its link. */
  first: { line: string; link: string | null; open: string };
  /** A period without answers says so, and lists the last weeks that had any. */
  quiet: { line: string; weeks: string[] } | null;
  /** Each journey with answers or surveys in either period: its score (as the locale writes it) and its other figures. */
  journeys: {
    name: string;
    score: string;
    lines: string[];
    best: string[];
    worst: string[];
    few: string | null;
    regions: { title: string; rows: ScopeWords[] } | null;
    /** The stores listed (those needing attention first), and the words and count of those that are not. */
    stores: { title: string; rows: ScopeWords[]; more: string | null; unlisted: number };
  }[];
  /** The top complaints, each with its examples, and the praise; the title always, a line when there are none. */
  themes: { title: string; items: { theme: string; examples: string[] }[]; none: string | null };
  praise: { title: string; line: string } | null;
  cases: { title: string; lines: string[] }[];
  more: string | null;
  attention: string;
}

const percent = (locale: Locale, rate: number | null) =>
  rate === null ? '-' : new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(rate);
const number = (locale: Locale, value: number | null) =>
  value === null ? '-' : new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(value);

const rankedLine = (locale: Locale, r: RankedRow) => `${r.label}: ${number(locale, r.score)} (${r.responses})`;

function journeyLines(t: Translate<AlertKey>, locale: Locale, j: JourneyDigest): string[] {
  if (j.responses === 0) return [t('digest.noAnswers')];
  return [
    ...(j.ci95 ? [t('digest.interval', { low: number(locale, j.ci95[0]), high: number(locale, j.ci95[1]) })] : []),
    ...(j.previous_score !== null ? [t('digest.previous', { score: number(locale, j.previous_score) })] : []),
    ...(j.change
      ? [
          t('digest.change', {
            sign: j.change.delta > 0 ? 'up' : j.change.delta < 0 ? 'down' : 'none',
            delta: number(locale, Math.abs(j.change.delta)),
            significant: j.change.significant ? 'yes' : 'no',
          }),
        ]
      : []),
    t('digest.answers', { answers: number(locale, j.responses) }),
    t('digest.responseRate', { rate: percent(locale, j.response_rate) }),
    ...(j.recovery_answers > 0
      ? [t('digest.recoveryRate', { rate: percent(locale, j.recovery_rate), answers: number(locale, j.recovery_answers) })]
      : []),
  ];
}

/** A store's or a region's line: its name, score, answers and change (beyond chance or not). */
function rowLine(t: Translate<AlertKey>, locale: Locale, r: ScopeRow): string {
  if (r.answers === 0) return t('digest.rowNoAnswers', { name: r.name });
  const change = r.change
    ? t('digest.rowChange', {
        sign: r.change.value > 0 ? 'up' : r.change.value < 0 ? 'down' : 'none',
        delta: number(locale, Math.abs(r.change.value)),
        significant: r.change.significant ? 'yes' : 'no',
      })
    : t('digest.rowNoChange');
  return t('digest.row', { name: r.name, score: number(locale, r.score), count: r.answers, change });
}

/** The digest's figures in words: the e-mail's text and headings, and what a chat summary of the digest can reuse. */
export function digestWords({
  figures,
  company,
  locale,
  timeZone,
}: Omit<DigestEmailInput, 'link' | 'colour' | 'unsubscribe'>): DigestWords {
  const t = alertTranslator(locale);
  const times = timesOf(locale, timeZone);
  const [from, to] = [times.day(figures.from), times.day(figures.to)];
  const dates = figures.from === figures.to ? from : t('digest.dates', { from, to });
  const owner = (c: DigestCase) => c.owner ?? t('digest.noOwner');
  const caseLine = (c: DigestCase) =>
    t('digest.case', { number: caseLabel(c), store: c.store, score: c.score, age: c.age_days, owner: owner(c), due: times.when(c.due_at) });
  const list = (title: string, cases: DigestCase[]) => ({ title, lines: cases.length ? cases.map(caseLine) : [t('digest.noCases')] });
  const rows = (list: ScopeRow[]) => list.map((r) => ({ line: rowLine(t, locale, r), attention: r.attention, answered: r.answers > 0 }));
  const first = figures.first;
  return {
    subject: t('digest.subject', { period: figures.period, company, dates }),
    intro: t('digest.intro', { from, to }),
    first: {
      line:
        first.kind === 'theme'
          ? t('digest.firstTheme', { store: first.store, theme: first.name, before: first.previous_negative, now: first.negative })
          : first.kind === 'case'
            ? t('digest.firstCase', {
                number: caseLabel(first.case),
                store: first.case.store,
                age: first.case.age_days,
                owner: owner(first.case),
              })
            : t('digest.firstNone'),
      link: first.kind === 'none' ? null : first.link,
      open: t('digest.firstOpen'),
    },
    quiet: figures.answered
      ? null
      : figures.last_weeks.length
        ? {
            line: t('digest.quiet'),
            weeks: figures.last_weeks.map((w) => t('digest.week', { from: times.day(w.from), to: times.day(w.to), count: w.answers })),
          }
        : { line: t('digest.quietNone'), weeks: [] },
    journeys: figures.journeys
      .filter((j) => j.responses > 0 || j.sent > 0 || j.previous_score !== null || j.stores.length > 0)
      .map((j) => {
        // A journey without answers says so in one line: its stores and regions, none answered, are not listed one
        // by one ("Loja 1: no answers", ten times on a phone). A journey with answers still lists a store without any.
        const answered = j.responses > 0;
        return {
          name: j.journey.name,
          score: `${t('digest.score')}: ${number(locale, j.score)}`,
          lines: journeyLines(t, locale, j),
          best: j.ranking.best.map((r) => rankedLine(locale, r)),
          worst: j.ranking.worst.map((r) => rankedLine(locale, r)),
          few: j.ranking.few.length ? t('digest.few', { names: j.ranking.few.map((r) => r.label).join(', ') }) : null,
          regions: answered && j.regions.length ? { title: t('digest.regions'), rows: rows(j.regions) } : null,
          stores: {
            title: t('digest.stores'),
            rows: answered ? rows(j.stores) : [],
            more: answered && j.more_stores > 0 ? t('digest.moreStores', { count: j.more_stores }) : null,
            unlisted: answered ? j.more_stores : 0,
          },
        };
      }),
    themes: {
      title: t('digest.themes'),
      items: figures.themes.map((theme) => ({
        theme: t('digest.theme', {
          name: theme.name,
          count: theme.negative,
          before: theme.previous_negative,
          rose: theme.rose ? 'yes' : 'no',
        }),
        examples: theme.examples.map((example) => t('digest.example', { example })),
      })),
      none: figures.themes.length ? null : t('digest.noThemes'),
    },
    praise: figures.praise.length
      ? { title: t('digest.praise'), line: figures.praise.map((p) => t('digest.praised', { name: p.name, count: p.positive })).join(', ') }
      : null,
    cases: [list(t('digest.overdueCases'), figures.cases.overdue), list(t('digest.openCases'), figures.cases.open)],
    more: figures.cases.more ? t('digest.moreCases') : null,
    attention: t('digest.attention'),
  };
}

/** A bar of `share` (0..1) drawn with two table cells: no image, no script, as every mail client draws tables. */
const bar = (share: number, colour: Colour): SafeHtml => {
  const filled = Math.round(Math.min(1, Math.max(0, share)) * 100);
  return html`<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse"><tr>${
    filled > 0 &&
    html`<td width="${filled}%" height="10" bgcolor="${colour}" style="background:${colour};height:10px;font-size:0;line-height:0">&nbsp;</td>`
  }${filled < 100 && html`<td height="10" bgcolor="#e5e7eb" style="background:#e5e7eb;height:10px;font-size:0;line-height:0">&nbsp;</td>`}</tr></table>`;
};

/** Where a score sits on its scale, 0..1 (NPS -100..100; a mean on its own scale). */
const shareOf = (j: JourneyDigest, score: number | null) => {
  if (score === null) return 0;
  if (j.journey.indicator === 'nps') return (score + 100) / 200;
  const [low, high] = j.journey.indicator === 'ces' ? [1, 7] : j.journey.indicator === 'binary' ? [0, 1] : [1, 5];
  return (score - low) / (high - low);
};

/** A vetted constant: the style of a line of figures. */
const cell = raw('padding:4px 0;font:15px/1.4 Arial,sans-serif;color:#111827');

/** The digest e-mail's column: at most this wide (fluid below it), and this wide in Outlook for Windows. */
export const DIGEST_WIDTH = 640;

/**
 * The digest e-mail: one fluid column (100% wide up to DIGEST_WIDTH, 640 px, Outlook's ghost table around it:
 * emailColumn; 390 to 700 px screens scroll nowhere), tables and bars
 * drawn with table cells, inline styles, no image nor script; its text part says the same in the same words.
 */
export function digestEmail(input: DigestEmailInput): { subject: string; html: string; text: string } {
  const { figures, locale, link } = input;
  const t = alertTranslator(locale);
  const colour = brandColour(input.colour);
  const words = digestWords(input);
  const ranked = (title: string, rows: RankedRow[], j: JourneyDigest) =>
    rows.length > 0 &&
    html`<p style="margin:12px 0 4px;font:bold 14px Arial,sans-serif;color:#374151">${title}</p>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0">${rows.map(
      (r) =>
        html`<tr><td style="${cell};width:45%;word-break:break-word">${r.label}</td><td align="right" style="${cell};width:15%;padding-right:8px">${number(locale, r.score)}</td><td style="padding:4px 0;width:40%">${bar(shareOf(j, r.score), colour)}</td></tr>`,
    )}</table>`;
  const section = (inner: SafeHtml) => html`<tr><td style="padding:16px 0;border-top:1px solid #e5e7eb">${inner}</td></tr>`;
  const h2 = (title: string) => html`<h2 style="margin:0 0 8px;font:bold 18px Arial,sans-serif;color:#111827">${title}</h2>`;
  const line = (text: string) => html`<p style="margin:4px 0;${cell}">${text}</p>`;
  const scopeRows = (title: string, rows: { line: string; attention: boolean }[]) =>
    html`<p style="margin:12px 0 4px;font:bold 14px Arial,sans-serif;color:#374151">${title}</p>${rows.map((r) =>
      r.attention
        ? html`<p style="margin:4px 0;${cell};border-left:4px solid #b91c1c;padding-left:8px"><strong>${r.line}</strong> (${words.attention})</p>`
        : html`<p style="margin:4px 0;${cell};padding-left:12px">${r.line}</p>`,
    )}`;
  const journeys = figures.journeys
    .filter((j) => words.journeys.some((w) => w.name === j.journey.name))
    .map((j) => {
      const w = words.journeys.find((x) => x.name === j.journey.name)!;
      return section(html`${h2(w.name)}
${j.score !== null && html`<p style="margin:0 0 4px;font:bold 22px Arial,sans-serif;color:#111827">${w.score}</p>${bar(shareOf(j, j.score), colour)}`}
${w.lines.map(line)}
${w.regions && scopeRows(w.regions.title, w.regions.rows)}
${w.stores.rows.length > 0 && scopeRows(w.stores.title, w.stores.rows)}
${w.stores.more && html`<p style="margin:4px 0;${cell}"><a href="${link}" style="color:${colour};display:inline-block;padding:6px 0">${w.stores.more}</a></p>`}
${ranked(t('digest.best', { by: j.ranked_by }), j.ranking.best, j)}
${ranked(t('digest.worst', { by: j.ranked_by }), j.ranking.worst, j)}
${w.few && html`<p style="margin:8px 0 0;font:13px Arial,sans-serif;color:#4b5563">${w.few}</p>`}`);
    });
  const caseLists = [figures.cases.overdue, figures.cases.open].map((list, at) => {
    const w = words.cases[at]!;
    return section(
      html`${h2(w.title)}${list.length ? list.map((c, i) => html`<p style="margin:4px 0;${cell}"><a href="${c.link}" style="color:${colour};display:inline-block;padding:6px 0">${w.lines[i]!}</a></p>`) : line(w.lines[0]!)}`,
    );
  });
  const first = words.first;
  const document = html`<!doctype html><html lang="${locale}" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="x-apple-disable-message-reformatting"><title>${words.subject}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" bgcolor="#f3f4f6"><tr><td align="center" style="padding:12px">
${emailColumn(
  DIGEST_WIDTH,
  html`border-top:4px solid ${colour}`,
  html`<tr><td style="padding:16px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0">
<tr><td style="padding:0 0 8px"><p style="margin:0;font:bold 16px Arial,sans-serif;color:#111827">${input.company}</p><h1 style="margin:4px 0;font:bold 20px Arial,sans-serif;color:#111827">${words.subject}</h1><p style="margin:0;${cell}">${words.intro}</p></td></tr>
<tr><td style="padding:12px;background:#fef3c7;border-left:4px solid #b45309"><p style="margin:0 0 8px;font:bold 16px/1.4 Arial,sans-serif;color:#111827">${first.line}</p>${first.link && html`<a href="${first.link}" style="color:#1f2937;font:bold 15px Arial,sans-serif;display:inline-block;padding:6px 0">${first.open}</a>`}</td></tr>
${words.quiet && section(html`${line(words.quiet.line)}${words.quiet.weeks.length > 0 && html`<ul style="margin:4px 0;padding-left:20px">${words.quiet.weeks.map((week) => html`<li style="${cell}">${week}</li>`)}</ul>`}`)}
${journeys}
${section(
  html`${h2(words.themes.title)}${words.themes.none && line(words.themes.none)}${words.themes.items.map(
    (item) =>
      html`<p style="margin:8px 0 0;${cell};font-weight:bold">${item.theme}</p>${item.examples.map((example) => html`<p style="margin:2px 0 0;font:italic 14px/1.4 Arial,sans-serif;color:#374151;word-break:break-word">${example}</p>`)}`,
  )}${words.praise && html`<p style="margin:12px 0 4px;font:bold 14px Arial,sans-serif;color:#374151">${words.praise.title}</p>${line(words.praise.line)}`}`,
)}
${caseLists}
${words.more && html`<tr><td style="${cell}">${words.more}</td></tr>`}
<tr><td style="padding:16px 0;border-top:1px solid #e5e7eb">${emailButton({ href: link, label: t('digest.open'), width: 280, colour })}
<p style="margin:12px 0 0;font:13px/1.4 Arial,sans-serif;color:#4b5563">${t('digest.optOut', { period: figures.period })} <a href="${input.unsubscribe}" style="color:#374151;display:inline-block;padding:6px 0">${t('digest.unsubscribeLink')}</a></p></td></tr>
</table></td></tr>`,
)}
</td></tr></table>
</body></html>`;
  return {
    subject: words.subject,
    html: document.toString(),
    text: digestText({
      words,
      open: t('digest.open'),
      link,
      optOut: `${t('digest.optOut', { period: figures.period })}\n${t('digest.unsubscribeLink')}: ${input.unsubscribe}`,
    }),
  };
}

function digestText({ words, open, link, optOut }: { words: DigestWords; open: string; link: string; optOut: string }): string {
  const rows = (rs: { line: string; attention: boolean }[]) =>
    rs.map((r) => (r.attention ? `! ${r.line} (${words.attention})` : `  ${r.line}`));
  const blocks = [
    `${words.subject}\n${words.intro}`,
    [words.first.line, ...(words.first.link ? [`${words.first.open}: ${words.first.link}`] : [])].join('\n'),
    ...(words.quiet ? [[words.quiet.line, ...words.quiet.weeks].join('\n')] : []),
    ...words.journeys.map((j) =>
      [
        j.name,
        j.score,
        ...j.lines,
        ...(j.regions ? [j.regions.title, ...rows(j.regions.rows)] : []),
        ...(j.stores.rows.length ? [j.stores.title, ...rows(j.stores.rows)] : []),
        ...(j.stores.more ? [`${j.stores.more}: ${link}`] : []),
        ...(j.best.length ? ['+ ' + j.best.join('\n+ ')] : []),
        ...(j.worst.length ? ['- ' + j.worst.join('\n- ')] : []),
        ...(j.few ? [j.few] : []),
      ].join('\n'),
    ),
    [
      words.themes.title,
      ...(words.themes.none ? [words.themes.none] : []),
      ...words.themes.items.flatMap((i) => [i.theme, ...i.examples.map((e) => `  ${e}`)]),
      ...(words.praise ? [`${words.praise.title}: ${words.praise.line}`] : []),
    ].join('\n'),
    ...words.cases.map((c) => [c.title, ...c.lines].join('\n')),
    ...(words.more ? [words.more] : []),
    `${open}: ${link}`,
    optOut,
  ];
  return `${blocks.join('\n\n')}\n`;
}
