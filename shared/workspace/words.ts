import { RATING_SOURCES, type SourceName } from '../channels.js';
import { html } from '../html.js';
import type { Translate, WorkspaceKey } from '../i18n/messages.js';
import { INDICATORS, type Indicator } from '../settings/scales.js';

/*
 * The manager's words for what the records hold as codes: a scale ("Estrelas (1 a 5)", never `csat5Stars`), where an
 * answer came from ("ligação (URA)", never `ura`), a store by its name.
 */

/** A journey's scale, in words; one this service does not know, as recorded. */
export const indicatorWords = (t: Translate<WorkspaceKey>, indicator: string) =>
  Object.hasOwn(INDICATORS, indicator) ? t(`indicator.${indicator as Indicator}`) : indicator;

/** Where an answer came from, in words; a source this service does not know, as recorded. */
export const sourceWords = (t: Translate<WorkspaceKey>, source: string) =>
  Object.hasOwn(RATING_SOURCES, source) ? t(`source.${source as SourceName}`) : source;

/** The most stores, employees or groups a page offers by name (a select, checkboxes); beyond it, their codes. */
export const MAX_CHOICES = 100;

/**
 * A filter's record, chosen by name among those the user may see (`choices`, by id), or typed as its code when there
 * are more than a select holds (`choices` undefined). The chosen one stays selected even if it is not listed.
 */
export function choiceField(o: {
  id: string;
  name: string;
  label: string;
  any: string;
  chosen: string | undefined;
  choices: Map<number, string> | undefined;
}) {
  if (!o.choices)
    return html`<div><label for="${o.id}">${o.label}</label><input id="${o.id}" name="${o.name}" type="number" min="1" inputmode="numeric" value="${o.chosen ?? ''}"></div>`;
  const sorted = [...o.choices].sort(([, a], [, b]) => a.localeCompare(b));
  const unlisted =
    o.chosen && /^\d+$/.test(o.chosen) && !o.choices.has(Number(o.chosen)) ? [[Number(o.chosen), `#${o.chosen}`] as const] : [];
  return html`<div><label for="${o.id}">${o.label}</label><select id="${o.id}" name="${o.name}"><option value="">${o.any}</option>${[
    ...sorted,
    ...unlisted,
  ].map(([id, name]) => html`<option value="${id}"${String(id) === o.chosen && html` selected`}>${name}</option>`)}</select></div>`;
}

/** A filter's store, by name among those the user may see (`choiceField`). */
export const storeField = (
  t: Translate<WorkspaceKey>,
  o: { id: string; name: string; label: string; chosen: string | undefined; choices: Map<number, string> | undefined },
) => choiceField({ ...o, any: t('workspace.anyStore') });
