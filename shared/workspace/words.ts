import { RATING_SOURCES, type SourceName } from '../channels.js';
import { html } from '../html.js';
import type { Translate, WorkspaceKey } from '../i18n/messages.js';
import { INDICATORS, type Indicator } from '../tenants/scales.js';

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

/** The most stores a filter offers by name in a select; a user who may see more types the store's code. */
export const MAX_STORE_CHOICES = 100;

/**
 * A filter's store, chosen by name among the stores the user may see (`choices`, by id), or typed as its code when
 * there are more than a select holds (`choices` undefined). The chosen one stays selected even if it is not listed.
 */
export function storeField(
  t: Translate<WorkspaceKey>,
  o: { id: string; name: string; label: string; chosen: string | undefined; choices: Map<number, string> | undefined },
) {
  if (!o.choices)
    return html`<div><label for="${o.id}">${o.label}</label><input id="${o.id}" name="${o.name}" type="number" min="1" inputmode="numeric" value="${o.chosen ?? ''}"></div>`;
  const sorted = [...o.choices].sort(([, a], [, b]) => a.localeCompare(b));
  return html`<div><label for="${o.id}">${o.label}</label><select id="${o.id}" name="${o.name}"><option value="">${t('workspace.anyStore')}</option>${sorted.map(
    ([id, name]) => html`<option value="${id}"${String(id) === o.chosen && html` selected`}>${name}</option>`,
  )}</select></div>`;
}
