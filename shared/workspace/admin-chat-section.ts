import { BROKEN_AFTER } from '../chat/delivery.js';
import { CHAT_EVENTS, CHAT_KINDS, type ChatEndpointHealth, type FailedChatDelivery } from '../chat/ports.js';
import { html, type SafeHtml } from '../html.js';
import { APP_ADMIN_WEBHOOKS_PATH } from '../session/paths.js';
import { type ConfigDocument } from '../tenants/config-schema.js';
import type { AdminWebhooksKey } from '../i18n/catalogue.js';
import { etagField, fieldError, inputField, selectField, type AdminFrame, type FieldErrors } from './admin-form.js';

/** The webhooks page's frame (admin-webhooks-page.ts): the shared words and its own. */
export type WebhooksFrame = AdminFrame<AdminWebhooksKey>;

/*
 * The webhooks page's section of chat endpoints (issue 48 §2): each Slack or Teams endpoint with what it hears of and
 * whether it is broken (404 or 410 in a row), the deliveries that failed, and the form that adds one (`alerts.chat`).
 */

type ChatEndpointConfig = NonNullable<ConfigDocument['alerts']['chat']>[number];

/** What the add form holds, as typed. */
export interface ChatValues {
  kind: string;
  url: string;
  events: string[];
  stores: string;
  comment: boolean;
}
export const EMPTY_CHAT: ChatValues = { kind: 'slack', url: '', events: [], stores: '', comment: false };

/** What the section shows besides the configuration: each endpoint's health by URL, the failed deliveries. */
export interface ChatStatus {
  health: Map<string, ChatEndpointHealth>;
  failed: FailedChatDelivery[];
}

export const chatValuesOf = (form: { get(name: string): string | null; getAll(name: string): string[] }): ChatValues => ({
  kind: form.get('kind') ?? '',
  url: (form.get('url') ?? '').trim(),
  events: form.getAll('events'),
  stores: (form.get('stores') ?? '').trim(),
  comment: form.get('comment') === 'true',
});

/** The configuration with the endpoint the form adds (its stores as typed: the schema names a wrong one). */
export function withChatEndpoint(config: ConfigDocument, values: ChatValues): unknown {
  const stores = values.stores
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map((id) => (/^\d+$/.test(id) ? Number(id) : id));
  const endpoint = {
    kind: values.kind,
    url: values.url,
    events: values.events,
    ...(stores.length ? { stores } : {}),
    comment: values.comment,
  };
  return { ...config, alerts: { ...config.alerts, chat: [...(config.alerts.chat ?? []), endpoint] } };
}

export function withoutChatEndpoint(config: ConfigDocument, url: string | null): ConfigDocument | undefined {
  const chat = config.alerts.chat ?? [];
  if (!chat.some((endpoint) => endpoint.url === url)) return undefined;
  return { ...config, alerts: { ...config.alerts, chat: chat.filter((endpoint) => endpoint.url !== url) } };
}

/** The form's field a schema issue at `path` belongs to, for the endpoint added at `added`. */
export function chatFieldOf(path: string, added: number): string {
  const [alerts, list, at, field] = path.split('.');
  if (alerts !== 'alerts' || list !== 'chat' || Number(at) !== added) return '';
  return field === 'kind' || field === 'events' || field === 'stores' || field === 'comment' ? `chat-${field}` : 'chat-url';
}

const eventWords = ({ t }: WebhooksFrame, type: string) =>
  html`${type === 'digest' ? t('admin.chat.event.digest') : type === 'score.drop' ? t('admin.chat.event.scoreDrop') : t(`admin.webhooks.event.${type as 'case.opened' | 'case.overdue'}`)} (<code>${type}</code>)`;

function endpointItem({
  frame,
  base,
  version,
  endpoint,
  health,
}: {
  frame: WebhooksFrame;
  base: string;
  version: number;
  endpoint: ChatEndpointConfig;
  health: ChatEndpointHealth | undefined;
}) {
  const { t } = frame;
  return html`<li class="card endpoint">
<p class="url"><strong>${endpoint.kind === 'slack' ? 'Slack' : 'Microsoft Teams'}</strong> <code>${endpoint.url}</code></p>
<p>${endpoint.events.map((type, at) => html`${at ? ', ' : ''}${eventWords(frame, type)}`)} · ${endpoint.stores ? t('admin.chat.someStores', { stores: endpoint.stores.join(', ') }) : t('admin.chat.allStores')} · ${endpoint.comment ? t('admin.webhooks.withComment') : t('admin.webhooks.withoutComment')}</p>
${health?.broken ? html`<p class="status overdue" role="status">${t('admin.chat.broken', { count: Math.max(health.gone, BROKEN_AFTER) })}</p>` : ''}
<form method="post" action="${base + APP_ADMIN_WEBHOOKS_PATH}">${etagField(version)}
<input type="hidden" name="action" value="remove-chat"><input type="hidden" name="url" value="${endpoint.url}">
<button type="submit" class="secondary">${t('admin.webhooks.remove')}<span class="visually-hidden"> ${endpoint.url}</span></button></form>
</li>`;
}

/** The section: the endpoints, the failed deliveries (newest first), the add form with its values and errors. */
export function chatSection({
  frame,
  base,
  version,
  config,
  status,
  values,
  errors,
}: {
  frame: WebhooksFrame;
  base: string;
  version: number;
  config: ConfigDocument;
  status: ChatStatus;
  values: ChatValues;
  errors: FieldErrors | undefined;
}): SafeHtml {
  const { t } = frame;
  const endpoints = config.alerts.chat ?? [];
  const events = fieldError({ errors, field: 'chat-events', id: 'c-events' });
  const comment = fieldError({ errors, field: 'chat-comment', id: 'c-comment' });
  return html`<h2 id="chat-title">${t('admin.chat.title')}</h2>
<p class="hint">${t('admin.chat.intro')}</p>
${
  endpoints.length
    ? html`<ul class="items" id="chat-endpoints" aria-labelledby="chat-title">${endpoints.map((endpoint) =>
        endpointItem({ frame, base, version, endpoint, health: status.health.get(endpoint.url) }),
      )}</ul>`
    : html`<p id="chat-empty">${t('admin.chat.none')}</p>`
}
${
  status.failed.length
    ? html`<h3 id="chat-failed-title">${t('admin.chat.failed')}</h3>
<ul id="chat-failed" aria-labelledby="chat-failed-title">${status.failed.map(
        (failure) =>
          html`<li>${frame.dateTime(failure.failed_at)} · ${eventWords(frame, failure.type)} · <code>${failure.error}</code> · <code>${failure.url}</code></li>`,
      )}</ul>`
    : ''
}
<section class="card form" id="chat-form" aria-labelledby="chat-form-title">
<h3 id="chat-form-title">${t('admin.chat.new')}</h3>
<form method="post" action="${base + APP_ADMIN_WEBHOOKS_PATH}" novalidate>${etagField(version)}
<input type="hidden" name="action" value="add-chat">
${selectField({ id: 'c-kind', name: 'kind', label: t('admin.chat.kind'), value: values.kind, options: CHAT_KINDS.map((kind) => [kind, kind === 'slack' ? 'Slack' : 'Microsoft Teams'] as const), errors: errors && new Map([['kind', errors.get('chat-kind') ?? []]]) })}
${inputField({ id: 'c-url', name: 'url', field: 'chat-url', label: t('admin.url'), value: values.url, errors, hint: t('admin.webhooks.urlHint'), attributes: html` type="url" inputmode="url" required maxlength="2000" autocapitalize="none" spellcheck="false"` })}
<fieldset id="c-events" tabindex="-1"${events.attributes}><legend>${t('admin.webhooks.events')}</legend>
<div class="checks">${CHAT_EVENTS.map(
    (type) =>
      html`<label class="check"><input type="checkbox" name="events" value="${type}"${values.events.includes(type) ? ' checked' : ''}> ${eventWords(frame, type)}</label>`,
  )}</div>${events.html}</fieldset>
${inputField({ id: 'c-stores', name: 'stores', field: 'chat-stores', label: t('admin.chat.stores'), value: values.stores, errors, hint: t('admin.chat.storesHint'), attributes: html` inputmode="numeric"` })}
<div class="field"><label class="check"><input type="checkbox" id="c-comment" name="comment" value="true"${values.comment ? ' checked' : ''}${comment.attributes}> ${t('admin.chat.comment')}</label>${comment.html}</div>
<div class="actions"><button type="submit">${t('admin.chat.add')}</button></div>
</form></section>`;
}
