import { createHash } from 'node:crypto';
import type { Indicator } from '../tenants/config-schema.js';
import { escapeHtml, SCALE_ENDS, scoreLabel, scoresOf } from './compose.js';
import { FAVICON_LINK } from '../favicon.js';
import { unsubscribeOf } from './paths.js';

/**
 * The survey pages, server-rendered: pt-BR, mobile-first, complete without JavaScript (radio buttons and a form
 * posted as application/x-www-form-urlencoded), no request to any other host. One stylesheet, inline and allowed
 * by its hash in the Content-Security-Policy.
 */

const STYLE = `*{box-sizing:border-box}body{margin:0;background:#f3f4f6;color:#1f2937;font:17px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif}
main{max-width:34rem;margin:0 auto;padding:1rem}.card{background:#fff;border-radius:.75rem;padding:1.25rem;box-shadow:0 1px 3px #0002}
h1{font-size:1.35rem;margin:0 0 .25rem}.store{color:#4b5563;margin:0 0 1rem}fieldset{border:0;margin:0 0 1.25rem;padding:0}
legend{font-weight:600;margin-bottom:.5rem;padding:0}.scale{display:flex;flex-wrap:wrap;gap:.35rem}
.scale label{flex:1 0 2.6rem;position:relative}.scale input{position:absolute;opacity:0;inset:0;margin:0;cursor:pointer}
.scale span{display:block;text-align:center;padding:.6rem .2rem;border:2px solid #0b5cad;border-radius:.5rem;color:#0b5cad;font-weight:700;background:#fff}
.scale input:checked+span{background:#0b5cad;color:#fff}.scale input:focus-visible+span{outline:3px solid #f59e0b;outline-offset:2px}
.stars span{font-size:1.4rem;padding:.3rem .2rem}.ends{display:flex;justify-content:space-between;font-size:.85rem;color:#4b5563;margin-top:.25rem}
label.block{display:block;font-weight:600;margin-bottom:.35rem}textarea{width:100%;min-height:6rem;font:inherit;padding:.5rem;border:2px solid #6b7280;border-radius:.5rem}
textarea:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
button{width:100%;font:inherit;font-weight:700;padding:.8rem;border:0;border-radius:.5rem;background:#0b5cad;color:#fff;cursor:pointer;margin-top:.5rem}
.hint{font-size:.85rem;color:#4b5563}.error{border:2px solid #b91c1c;background:#fef2f2;color:#7f1d1d;border-radius:.5rem;padding:.75rem;margin-bottom:1rem}
.error ul{margin:.25rem 0 0;padding-left:1.2rem}.optional{font-weight:400;color:#4b5563}footer{text-align:center;font-size:.85rem;padding:1rem;color:#4b5563}
footer a{color:#374151}`;

export const STYLE_HASH = `sha256-${createHash('sha256').update(STYLE).digest('base64')}`;

/** The headers every survey page carries. */
export const PAGE_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `default-src 'none'; style-src '${STYLE_HASH}'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow"><title>${escapeHtml(title)}</title>${FAVICON_LINK}<style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

export interface ScaleQuestion {
  /** The form field: `score` or `class_<id>`. */
  field: string;
  legend: string;
  indicator: Indicator;
  chosen: number | undefined;
  optional: boolean;
}

export interface SurveyPageView {
  /** The link's token: the form posts to it (relative URL, so it works under any stage path). */
  token: string;
  store: string;
  customerFirstName: string;
  question: ScaleQuestion;
  classes: ScaleQuestion[];
  comment: string;
  problems: string[];
}

export const MAX_COMMENT_LENGTH = 1000;

function scale(q: ScaleQuestion): string {
  const stars = q.indicator === 'csat5Stars';
  const [low, high] = SCALE_ENDS[q.indicator];
  const options = scoresOf(q.indicator)
    .map((score) => {
      const text = stars ? `${score} ★` : escapeHtml(scoreLabel(q.indicator, score));
      const name = stars ? `${score} ${score === 1 ? 'estrela' : 'estrelas'}` : scoreLabel(q.indicator, score);
      return `<label><input type="radio" name="${q.field}" value="${score}"${q.chosen === score ? ' checked' : ''}${q.optional ? '' : ' required'} aria-label="${escapeHtml(name)}"><span aria-hidden="true">${text}</span></label>`;
    })
    .join('');
  const id = `${q.field}-legend`;
  return `<fieldset aria-describedby="${id}-ends"><legend id="${id}">${escapeHtml(q.legend)}${q.optional ? ' <span class="optional">(opcional)</span>' : ''}</legend>
<div class="scale${stars ? ' stars' : ''}">${options}</div>
<div class="ends" id="${id}-ends"><span>${scoresOf(q.indicator)[0]} = ${escapeHtml(low)}</span><span>${scoresOf(q.indicator).at(-1)} = ${escapeHtml(high)}</span></div></fieldset>`;
}

export function surveyPage(view: SurveyPageView): string {
  const errors = view.problems.length
    ? `<div class="error" role="alert"><strong>Confira sua resposta:</strong><ul>${view.problems.map((p) => `<li>${escapeHtml(p)}</li>`).join('')}</ul></div>`
    : '';
  const greeting = view.customerFirstName ? `${view.customerFirstName}, sua opinião importa` : 'Sua opinião importa';
  return layout(
    `Pesquisa de satisfação – ${view.store}`,
    `<div class="card"><h1>${escapeHtml(greeting)}</h1><p class="store">${escapeHtml(view.store)}</p>${errors}
<form method="post" action="${escapeHtml(view.token)}">
${scale(view.question)}
${view.classes.map(scale).join('\n')}
<label class="block" for="comment">Quer contar mais? <span class="optional">(opcional)</span></label>
<textarea id="comment" name="comment" maxlength="${MAX_COMMENT_LENGTH}" aria-describedby="comment-hint">${escapeHtml(view.comment)}</textarea>
<p class="hint" id="comment-hint">Até ${MAX_COMMENT_LENGTH} caracteres.</p>
<button type="submit">Enviar resposta</button>
</form></div>
<footer><a href="${unsubscribeOf(escapeHtml(view.token))}">Não quero mais receber pesquisas</a></footer>`,
  );
}

/** A page with a heading and a paragraph: thanks, already answered, expired, not found. */
export function messagePage(title: string, text: string, extra = ''): string {
  return layout(title, `<div class="card"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${extra}</div>`);
}

export function unsubscribePage(token: string): string {
  return layout(
    'Cancelar pesquisas',
    `<div class="card"><h1>Cancelar pesquisas</h1><p>Você deixará de receber pesquisas de satisfação desta empresa.</p>
<form method="post" action="unsubscribe"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Confirmar</button></form>
<p class="hint"><a href="../${escapeHtml(token)}">Voltar para a pesquisa</a></p></div>`,
  );
}
