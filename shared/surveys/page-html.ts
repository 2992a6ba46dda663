import { createHash } from 'node:crypto';
import { BUCKETS, type Bucket, type Indicator } from '../settings/scales.js';
import type { Locale } from '../locale.js';
import { translator, type Translate } from '../i18n/messages.js';
import { colour as checkedColour, html, raw, type SafeHtml } from '../html.js';
import { safeLogo } from '../brand/brand.js';
import type { SurveyBrand } from './compose.js';
import { bucketOf, scaleEnds, scoreLabel, scoreName, scoresOf } from './questions.js';
import { FAVICON_LINK } from '../favicon.js';
import { unsubscribeOf } from './paths.js';

/**
 * The survey pages, server-rendered in the survey's language: mobile-first, complete without JavaScript (radio
 * buttons and a form posted as application/x-www-form-urlencoded), showing the tenant's brand. One stylesheet,
 * inline and allowed by its hash in the Content-Security-Policy; the brand's colour is a second one-line sheet
 * allowed by its own hash, and the logo's origin is the only other address a page may load from.
 */

/** Who a page speaks to: the survey's language and the tenant's brand (none on a page with no survey behind it). */
export interface PageFrame {
  locale: Locale;
  brand?: SurveyBrand;
}

/** A rendered page: its HTML and the Content-Security-Policy that admits exactly what it loads. */
export interface Rendered {
  html: string;
  policy: string;
}

/**
 * The comment's label names the follow-up of the bucket the chosen score is in; CSS shows it, no script needed. Only
 * the questions (`fu-*`) are hidden by default: the label's "(optional)" mark stays.
 */
const FOLLOW_UP_STYLE =
  '.fu>[class^=fu-]{display:none}.fu>.fu-any{display:inline}' +
  BUCKETS.map((b) => `form:has(.b-${b}:checked) .fu>.fu-any{display:none}form:has(.b-${b}:checked) .fu>.fu-${b}{display:inline}`).join('');

/**
 * The scales are grids of equal cells, each at least 44 x 44 px (the tap target): 1-7 in one row from 320 px wide
 * (the narrow layout leaves 308 px for 7 x 44), 0-10 in two centred rows of 6 and 5 until one row of 11 fits.
 */
const STYLE = `*{box-sizing:border-box}body{margin:0;background:#f3f4f6;color:#1f2937;font:17px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif}
:root{--brand:#0b5cad}main{max-width:36rem;margin:0 auto;padding:1rem}.card{background:#fff;border-radius:.75rem;padding:1.25rem;box-shadow:0 1px 3px #0002}
.brand{display:flex;align-items:center;gap:.6rem;margin:0 0 1rem;font-weight:700;color:#374151}.brand img{max-height:2.75rem;max-width:9rem;object-fit:contain}
h1{font-size:1.35rem;margin:0 0 1rem}fieldset{border:0;margin:0 0 1.25rem;padding:0;min-width:0}
legend{font-weight:600;margin-bottom:.5rem;padding:0}.scale{display:grid}.n2{grid-template-columns:repeat(2,1fr)}.n5{grid-template-columns:repeat(5,1fr)}
.n7{grid-template-columns:repeat(7,1fr)}.n11{grid-template-columns:repeat(12,1fr)}.n11 label{grid-column:span 2}.n11 label:nth-child(7){grid-column:2/span 2}
.scale label{position:relative;min-height:2.75rem;display:flex}.scale input{position:absolute;opacity:0;inset:0;margin:0;cursor:pointer;width:100%;height:100%}
.scale span{flex:1;display:flex;align-items:center;justify-content:center;margin:2px;border:2px solid var(--brand);border-radius:.5rem;color:var(--brand);font-weight:700;background:#fff}
.scale input:checked+span{background:var(--brand);color:#fff}.scale input:focus-visible+span{outline:3px solid #f59e0b;outline-offset:1px}
.stars span{font-size:1.05rem}.ends{display:flex;justify-content:space-between;gap:1rem;font-size:.85rem;color:#4b5563;margin-top:.25rem}.ends span:last-child{text-align:right}
label.block{display:block;font-weight:600;margin-bottom:.35rem}textarea{display:block;width:100%;min-height:6rem;font:inherit;padding:.5rem;border:2px solid #6b7280;border-radius:.5rem}
textarea:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
button{width:100%;min-height:2.75rem;font:inherit;font-weight:700;padding:.8rem;border:0;border-radius:.5rem;background:var(--brand);color:#fff;cursor:pointer;margin-top:.5rem}
.hint{font-size:.85rem;color:#4b5563;margin:.35rem 0 1.25rem}.error{border:2px solid #b91c1c;background:#fef2f2;color:#7f1d1d;border-radius:.5rem;padding:.75rem;margin-bottom:1rem}
.error ul{margin:.25rem 0 0;padding-left:1.2rem}.optional{font-weight:400;color:#4b5563}footer{text-align:center;font-size:.85rem;padding:1rem;color:#4b5563}
footer a,.hint a{color:#374151;display:inline-block;padding:.75rem 0}${FOLLOW_UP_STYLE}
.contact input{display:block;width:100%;min-height:2.75rem;font:inherit;padding:.5rem;border:2px solid #6b7280;border-radius:.5rem;margin-bottom:.75rem}
.contact label{display:block;font-weight:600;margin-bottom:.25rem}.contact input:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}.hp{display:none}
.kiosk .scale label{min-height:4.5rem}.kiosk .scale span{font-size:1.6rem}.kiosk button{min-height:4rem;font-size:1.25rem}
@media (max-width:24rem){main{padding:.5rem 0}.card{border-radius:0;padding:1rem .375rem}}
@media (min-width:36rem){.n11{grid-template-columns:repeat(11,1fr)}.n11 label,.n11 label:nth-child(7){grid-column:auto}}`;

const hashOf = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
export const STYLE_HASH = hashOf(STYLE);

/** The headers every survey page carries besides its Content-Security-Policy. */
export const PAGE_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/**
 * The kiosk's one script (progressive enhancement: the form works without it), allowed by its hash with fetches to its
 * own origin: an answer made while the tablet is offline is kept in localStorage and posted when it is back (each in
 * turn; a 303 or a refused form is done with, a 429 or a failure waits for the next try).
 */
const KIOSK_SCRIPT = `(()=>{const K='kiosk-answers',f=document.querySelector('form.kiosk'),m=document.getElementById('kiosk-offline');if(!f||!m)return;
const kept=()=>JSON.parse(localStorage.getItem(K)||'[]'),keep=(a)=>localStorage.setItem(K,JSON.stringify(a));
async function send(){let a=kept();while(a.length&&navigator.onLine){let r;try{r=await fetch(f.action,{method:'POST',body:a[0],headers:{'content-type':'application/x-www-form-urlencoded'},redirect:'manual'})}catch{return}
if(r.status===429||r.status>=500)return;a=kept().slice(1);keep(a)}}
f.addEventListener('submit',(e)=>{if(navigator.onLine)return;e.preventDefault();keep([...kept(),new URLSearchParams(new FormData(f)).toString()]);f.reset();m.hidden=false;setTimeout(()=>{m.hidden=true},10000)});
addEventListener('online',send);setInterval(send,30000);send()})();`;

const policyOf = (styles: string[], images: string[], scripts: string[] = []) =>
  `default-src 'none'; style-src ${styles.join(' ')}; img-src 'self' data:${images.map((i) => ` ${i}`)}${scripts.length ? `; script-src ${scripts.join(' ')}; connect-src 'self'` : ''}; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

/** The policy of a page without a brand (the wrapper's error pages). */
export const PLAIN_POLICY = policyOf([STYLE_HASH], []);

/** What a page may add to its head and body: a meta refresh to a URL after some seconds, the kiosk's script. */
interface Extras {
  refresh?: { seconds: number; url: string } | undefined;
  kiosk?: boolean;
}

export function layout(
  frame: PageFrame,
  { title, body, footer, extras = {} }: { title: string; body: SafeHtml; footer?: SafeHtml; extras?: Extras },
): Rendered {
  const colour = checkedColour(frame.brand?.colour);
  const logo = safeLogo(frame.brand?.logoUrl);
  // A checked #rrggbb, so the sheet is as vetted as STYLE.
  const brandStyle = colour ? `:root{--brand:${colour}}` : '';
  const icon = logo ? html`<link rel="icon" href="${logo.url}">` : FAVICON_LINK;
  const header = frame.brand
    ? html`<header class="brand">${logo ? html`<img src="${logo.url}" alt="" height="44">` : ''}<span>${frame.brand.name}</span></header>`
    : '';
  return {
    html: html`<!doctype html>
<html lang="${frame.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow"><meta name="description" content="${translator(frame.locale)('page.description')}">
<title>${title}</title>${extras.refresh ? html`<meta http-equiv="refresh" content="${`${extras.refresh.seconds};url=${extras.refresh.url}`}">` : ''}${icon}<style>${raw(STYLE)}</style>${brandStyle && html`<style>${raw(brandStyle)}</style>`}</head>
<body><main><div class="card">${header}${body}</div>${footer}</main>${extras.kiosk ? html`<script>${raw(KIOSK_SCRIPT)}</script>` : ''}</body></html>`.toString(),
    policy: policyOf(
      [STYLE_HASH, ...(brandStyle ? [hashOf(brandStyle)] : [])],
      logo ? [logo.origin] : [],
      extras.kiosk ? [hashOf(KIOSK_SCRIPT)] : [],
    ),
  };
}

export interface ScaleQuestion {
  /** The form field: `score` or `class_<id>`. */
  field: string;
  legend: string;
  indicator: Indicator;
  chosen: number | undefined;
  optional: boolean;
}

export interface SurveyPageView extends PageFrame {
  brand: SurveyBrand;
  /** The link's token: the form posts to it (relative URL, so it works under any stage path). */
  token: string;
  customerFirstName: string;
  question: ScaleQuestion;
  /** The follow-up question of each bucket of the main scale: the comment's label once a score in it is chosen. */
  followUps: { bucket: Bucket; text: string }[];
  classes: ScaleQuestion[];
  comment: string;
  problems: string[];
  /**
   * A store's QR code or kiosk, where no customer is known: optional contact fields (a reply) and a field people never
   * see (a simple bot fills it), instead of the opt-out link.
   */
  entry?: { email: string; phone: string };
  /** A kiosk's page: bigger buttons, and its script that keeps answers made offline until the tablet is back online. */
  kiosk?: boolean;
}

export const MAX_COMMENT_LENGTH = 1000;
/** The field people never see on an entry's page: a post that fills it is a bot's. */
export const HONEYPOT_FIELD = 'website';

function contactFields(entry: { email: string; phone: string }, t: Translate): SafeHtml {
  return html`<fieldset class="contact" aria-describedby="contact-hint"><legend>${t('qr.contactLegend')} <span class="optional">${t('page.optional')}</span></legend>
<label for="email">${t('qr.email')}</label><input id="email" name="email" type="email" autocomplete="email" maxlength="254" value="${entry.email}">
<label for="phone">${t('qr.phone')}</label><input id="phone" name="phone" type="tel" autocomplete="tel" maxlength="20" value="${entry.phone}">
<p class="hint" id="contact-hint">${t('qr.contactHint')}</p></fieldset>
<div class="hp"><label for="${HONEYPOT_FIELD}">${t('qr.honeypot')}</label><input id="${HONEYPOT_FIELD}" name="${HONEYPOT_FIELD}" tabindex="-1" autocomplete="off"></div>`;
}

function scale(q: ScaleQuestion, t: Translate, main: boolean): SafeHtml {
  const stars = q.indicator === 'csat5Stars';
  const [low, high] = scaleEnds(q.indicator, t);
  const scores = scoresOf(q.indicator);
  const options = scores.map((score) => {
    const text = stars ? `${score} ★` : scoreLabel(q.indicator, score, t);
    const bucket = main && html` class="b-${bucketOf(q.indicator, score)}"`;
    return html`<label><input type="radio" name="${q.field}" value="${score}"${bucket}${q.chosen === score ? ' checked' : ''}${q.optional ? '' : ' required'} aria-label="${scoreName(q.indicator, score, t)}"><span aria-hidden="true">${text}</span></label>`;
  });
  const id = `${q.field}-legend`;
  const end = (score: number, label: string) => t('scale.ends', { score: scoreLabel(q.indicator, score, t), label });
  return html`<fieldset aria-describedby="${id}-ends"><legend id="${id}">${q.legend}${q.optional ? html` <span class="optional">${t('page.optional')}</span>` : ''}</legend>
<div class="scale n${scores.length}${stars ? ' stars' : ''}">${options}</div>
<div class="ends" id="${id}-ends"><span>${end(scores[0]!, low)}</span><span>${end(scores.at(-1)!, high)}</span></div></fieldset>`;
}

export function surveyPage(view: SurveyPageView): Rendered {
  const t = translator(view.locale);
  const errors = view.problems.length
    ? html`<div class="error" role="alert"><strong>${t('page.problemsHeading')}</strong><ul>${view.problems.map((p) => html`<li>${p}</li>`)}</ul></div>`
    : '';
  const greeting = t('page.greeting', { named: view.customerFirstName ? 'yes' : 'no', name: view.customerFirstName });
  const followUps = view.followUps.map((f) => html`<span class="fu-${f.bucket}">${f.text}</span>`);
  return layout(view, {
    title: t('page.title', { company: view.brand.name }),
    body: html`<h1>${greeting}</h1>${errors}
<form method="post" action="${view.token}"${view.kiosk ? html` class="kiosk"` : ''}>
${scale(view.question, t, true)}
<label class="block fu" for="comment"><span class="fu-any">${t('page.commentLabel')}</span>${followUps} <span class="optional">${t('page.optional')}</span></label>
<textarea id="comment" name="comment" maxlength="${MAX_COMMENT_LENGTH}" aria-describedby="comment-hint">${view.comment}</textarea>
<p class="hint" id="comment-hint">${t('page.commentHint', { max: MAX_COMMENT_LENGTH })}</p>
${view.classes.map((q, at) => html`${at > 0 && '\n'}${scale(q, t, false)}`)}
${view.entry ? contactFields(view.entry, t) : ''}<button type="submit">${t('page.submit')}</button>
</form>${view.kiosk ? html`<p class="hint" id="kiosk-offline" role="status" hidden>${t('kiosk.offline')}</p>` : ''}`,
    footer: view.entry ? undefined : html`<footer><a href="${unsubscribeOf(view.token)}">${t('page.unsubscribeLink')}</a></footer>`,
    extras: { kiosk: view.kiosk === true },
  });
}

export interface RecoveryPageView extends PageFrame {
  brand: SurveyBrand;
  token: string;
  customerFirstName: string;
  /** "Did we solve it?", yes or no (required). */
  question: string;
  solved: 'yes' | 'no' | undefined;
  /** The new score, on the journey's scale (optional). */
  score: ScaleQuestion;
  problems: string[];
}

/** The recovery survey's page: yes or no, and an optional new score; the same form, layout and opt-out as the survey's. */
export function recoveryPage(view: RecoveryPageView): Rendered {
  const t = translator(view.locale);
  const errors = view.problems.length
    ? html`<div class="error" role="alert"><strong>${t('page.problemsHeading')}</strong><ul>${view.problems.map((p) => html`<li>${p}</li>`)}</ul></div>`
    : '';
  const greeting = t('page.greeting', { named: view.customerFirstName ? 'yes' : 'no', name: view.customerFirstName });
  const option = (value: 'yes' | 'no') =>
    html`<label><input type="radio" name="solved" value="${value}"${view.solved === value ? ' checked' : ''} required><span>${t(value === 'yes' ? 'score.yes' : 'score.no')}</span></label>`;
  return layout(view, {
    title: t('recovery.title', { company: view.brand.name }),
    body: html`<h1>${greeting}</h1>${errors}
<form method="post" action="${view.token}">
<fieldset><legend>${view.question}</legend>
<div class="scale n2">${option('yes')}${option('no')}</div></fieldset>
${scale(view.score, t, false)}
<button type="submit">${t('page.submit')}</button>
</form>`,
    footer: html`<footer><a href="${unsubscribeOf(view.token)}">${t('page.unsubscribeLink')}</a></footer>`,
  });
}

/**
 * A page with a heading and a paragraph: thanks, already answered, expired, not found, the wrapper's errors; `refresh`
 * goes on to a URL after some seconds (a kiosk's thanks, back to its start without script).
 */
export function messagePage(
  frame: PageFrame,
  { title, text, refresh }: { title: string; text: string; refresh?: Extras['refresh'] },
): Rendered {
  return layout(frame, { title, body: html`<h1>${title}</h1><p>${text}</p>`, extras: { refresh } });
}

export function unsubscribePage(frame: PageFrame & { brand: SurveyBrand }, token: string): Rendered {
  const t = translator(frame.locale);
  return layout(frame, {
    title: t('unsubscribe.title'),
    body: html`<h1>${t('unsubscribe.title')}</h1><p>${t('unsubscribe.text', { company: frame.brand.name })}</p>
<form method="post" action="unsubscribe"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">${t('unsubscribe.confirm')}</button></form>
<p class="hint"><a href="../${token}">${t('unsubscribe.back')}</a></p>`,
  });
}
