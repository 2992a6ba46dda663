import { html, type HtmlValue, type SafeHtml } from '../html.js';
import { ADMIN_WEBHOOKS } from '../i18n/messages.js';
import { EVENT_TYPES, type EventType } from '../events/ports.js';
import { eventEndpoint } from '../events/signature.js';
import { APP_ADMIN_WEBHOOKS_PATH } from '../session/paths.js';
import { type ConfigDocument } from '../tenants/config-schema.js';
import type { WebAnswer } from '../web-answer.js';
import { redirect } from '../web-answer.js';
import {
  adminFrame,
  doneNotice,
  etagField,
  fieldError,
  problemsBox,
  redirectShowingOnce,
  type AdminPagePorts,
  type AdminPageRequest,
  type FieldErrors,
  type ShownOncePorts,
} from './admin-form.js';
import type { changeConfig as ConfigChange, ChangeOutcome } from './admin-config-form.js';
import {
  chatFieldOf,
  chatSection,
  chatValuesOf,
  EMPTY_CHAT,
  withChatEndpoint,
  withoutChatEndpoint,
  type ChatStatus,
  type ChatValues,
  type WebhooksFrame,
} from './admin-chat-section.js';

type Endpoint = NonNullable<ConfigDocument['delivery']['webhooks']>[number];

/** What the add form holds, as typed. */
interface EndpointValues {
  url: string;
  events: string[];
  includeComment: boolean;
}

const EMPTY: EndpointValues = { url: '', events: [], includeComment: false };
const DONE = { added: 'added', removed: 'removed', chatAdded: 'chat-added', chatRemoved: 'chat-removed' } as const;

/** What the page reads of the chat endpoints besides the configuration: their health and failed deliveries. */
export interface ChatStatusPorts {
  chatStatus(tenantId: number): Promise<ChatStatus>;
}

/**
 * The tenant admin's event endpoints (issue 34 §6): each endpoint's URL and the event types it receives; add one,
 * remove one, through the configuration service as `PUT /public/admin/config` writes (`delivery.webhooks`). A new
 * endpoint's signing secret is shown once on the page after the post, as a new key is (the shown-once cookie).
 */
export function adminWebhooksPage(ports: AdminPagePorts & ChatStatusPorts & { shownOnce: ShownOncePorts }) {
  async function showWebhooks(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame({ ports, request, path: APP_ADMIN_WEBHOOKS_PATH, own: ADMIN_WEBHOOKS });
    if (refused) return refused;
    const [{ config, version }, { notice, cookies }, chat] = await Promise.all([
      ports.readConfig(request.tenantId),
      doneNotice({
        ports: ports.shownOnce,
        request,
        path: APP_ADMIN_WEBHOOKS_PATH,
        boxId: 'new-secret',
        said: {
          [DONE.added]: frame.t('admin.webhooks.added'),
          [DONE.removed]: frame.t('admin.webhooks.removed'),
          [DONE.chatAdded]: frame.t('admin.chat.added'),
          [DONE.chatRemoved]: frame.t('admin.chat.removed'),
        },
      }),
      ports.chatStatus(request.tenantId),
    ]);
    return {
      ...render({
        frame,
        base: request.base,
        status: 200,
        config,
        version,
        values: EMPTY,
        chat,
        chatValues: EMPTY_CHAT,
        outcome: undefined,
        notice,
      }),
      cookies,
    };
  }

  return { showWebhooks };
}

/**
 * The form's post: the change checked by the tenant file's schema (`changeConfig`, admin-config-form.ts), given by the
 * post's wiring only, so that the page's function does not build that schema. `signingSecret` derives a new endpoint's
 * secret (generation 1, never stored), to be shown once.
 */
export function adminWebhooksForm(
  ports: AdminPagePorts & ChatStatusPorts & { shownOnce: ShownOncePorts; signingSecret(tenantId: number, url: string): string | undefined },
  changeConfig: typeof ConfigChange,
) {
  /** Adds or removes a chat endpoint (`alerts.chat`): the form's `add-chat` and `remove-chat`. */
  async function saveChat(request: AdminPageRequest, frame: WebhooksFrame): Promise<WebAnswer> {
    const removing = request.form.get('action') === 'remove-chat';
    const sent = removing ? EMPTY_CHAT : chatValuesOf(request.form);
    let added = -1;
    const outcome = await changeConfig(ports, {
      request,
      change: (config) => {
        if (removing)
          return (
            withoutChatEndpoint(config, request.form.get('url')) ??
            (new Map([['', [frame.t('admin.webhooks.unknownEndpoint')]]]) as FieldErrors)
          );
        added = config.alerts.chat?.length ?? 0;
        return withChatEndpoint(config, sent);
      },
      fieldOf: (path) => chatFieldOf(path, added),
      say: frame.say,
    });
    if (outcome.kind === 'saved')
      return redirect(`${request.base}${APP_ADMIN_WEBHOOKS_PATH}?done=${removing ? DONE.chatRemoved : DONE.chatAdded}`);
    const status = outcome.kind === 'stale' ? 409 : 400;
    const chat = await ports.chatStatus(request.tenantId);
    return render({
      frame,
      base: request.base,
      status,
      config: outcome.config,
      version: outcome.version,
      values: EMPTY,
      chat,
      chatValues: sent,
      outcome,
      notice: undefined,
      form: 'chat',
    });
  }

  async function saveWebhooks(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame({ ports, request, path: APP_ADMIN_WEBHOOKS_PATH, own: ADMIN_WEBHOOKS });
    if (refused) return refused;
    const { form } = request;
    if (form.get('action') === 'add-chat' || form.get('action') === 'remove-chat') return saveChat(request, frame);
    const removing = form.get('action') === 'remove';
    const sent: EndpointValues = removing
      ? EMPTY
      : { url: (form.get('url') ?? '').trim(), events: form.getAll('events'), includeComment: form.get('includeComment') === 'true' };
    let added = -1;
    const outcome = await changeConfig(ports, {
      request,
      change: (config) => {
        const webhooks = config.delivery.webhooks ?? [];
        if (removing) {
          const url = form.get('url');
          if (!webhooks.some((endpoint) => endpoint.url === url))
            return new Map([['', [frame.t('admin.webhooks.unknownEndpoint')]]]) as FieldErrors;
          const kept = webhooks.filter((endpoint) => endpoint.url !== url);
          const { webhooks: _all, ...delivery } = config.delivery;
          return { ...config, delivery: kept.length ? { ...delivery, webhooks: kept } : delivery };
        }
        added = webhooks.length;
        const endpoint = {
          url: sent.url,
          ...(sent.events.length ? { events: sent.events } : {}),
          ...(sent.includeComment ? { includeComment: true } : {}),
        };
        return { ...config, delivery: { ...config.delivery, webhooks: [...webhooks, endpoint] } };
      },
      fieldOf: (path) => {
        const [delivery, list, at, field] = path.split('.');
        if (delivery !== 'delivery' || list !== 'webhooks' || Number(at) !== added) return '';
        // The URL listed twice is the endpoint's own problem: it is the URL's.
        return field === 'events' || field === 'includeComment' ? field : 'url';
      },
      say: frame.say,
    });
    if (outcome.kind === 'saved') {
      // An endpoint added again keeps the secret it had (and its generation): only a first one's is shown.
      const secret = !removing && outcome.newEndpoints.includes(eventEndpoint(sent.url)) && ports.signingSecret(request.tenantId, sent.url);
      if (secret)
        return redirectShowingOnce({
          ports: ports.shownOnce,
          request,
          path: APP_ADMIN_WEBHOOKS_PATH,
          query: `done=${DONE.added}`,
          shown: {
            notice: frame.t('admin.webhooks.addedSecret', { url: sent.url }),
            secret,
          },
        });
      return redirect(`${request.base}${APP_ADMIN_WEBHOOKS_PATH}?done=${removing ? DONE.removed : DONE.added}`);
    }
    const status = outcome.kind === 'stale' ? 409 : 400;
    const chat = await ports.chatStatus(request.tenantId);
    return render({
      frame,
      base: request.base,
      status,
      config: outcome.config,
      version: outcome.version,
      values: sent,
      chat,
      chatValues: EMPTY_CHAT,
      outcome,
    });
  }

  return { saveWebhooks };
}

function render({
  frame,
  base,
  status,
  config,
  version,
  values,
  chat,
  chatValues,
  outcome,
  notice,
  form = 'webhooks',
}: {
  frame: WebhooksFrame;
  base: string;
  status: number;
  config: ConfigDocument;
  version: number;
  values: EndpointValues;
  chat: ChatStatus;
  chatValues: ChatValues;
  outcome?: Exclude<ChangeOutcome, { kind: 'saved' }>;
  notice?: HtmlValue;
  /** Which form the outcome is about: the event endpoints' or the chat endpoints'. */ form?: 'webhooks' | 'chat';
}): WebAnswer {
  const { t } = frame;
  const chatLabels = {
    'chat-kind': { label: t('admin.chat.kind'), id: 'c-kind' },
    'chat-url': { label: t('admin.url'), id: 'c-url' },
    'chat-events': { label: t('admin.webhooks.events'), id: 'c-events' },
    'chat-stores': { label: t('admin.chat.stores'), id: 'c-stores' },
    'chat-comment': { label: t('admin.chat.comment'), id: 'c-comment' },
  };
  const endpoints = config.delivery.webhooks ?? [];
  const labels = {
    url: { label: t('admin.url'), id: 'w-url' },
    events: { label: t('admin.webhooks.events'), id: 'w-events' },
    includeComment: { label: t('admin.webhooks.includeComment'), id: 'w-includeComment' },
  };
  const body = html`<h1>${t('admin.webhooks')}</h1>
<p class="hint">${t('admin.webhooks.webhooksIntro')}</p>
${notice ?? ''}
${outcome ? (form === 'chat' ? problemsBox({ t: frame.t, outcome, labels: chatLabels, formId: 'chat-form' }) : problemsBox({ t: frame.t, outcome, labels, formId: 'endpoint-form' })) : ''}
<h2 id="endpoints-title">${t('admin.webhooks.endpointList')}</h2>
${
  endpoints.length
    ? html`<ul class="items" id="endpoints" aria-labelledby="endpoints-title">${endpoints.map((endpoint) => endpointItem({ frame, base, version, endpoint }))}</ul>`
    : html`<p id="endpoints-empty">${t('admin.webhooks.noEndpoints')}</p>`
}
${endpointForm({ frame, base, version, values, errors: form === 'webhooks' ? outcome?.errors : undefined })}
${chatSection({ frame, base, version, config, status: chat, values: chatValues, errors: form === 'chat' ? outcome?.errors : undefined })}`;
  return frame.page(status, t('admin.webhooks'), body);
}

/** An event in the manager's words, its code beside for the developers who receive it. */
const eventWords = ({ t }: WebhooksFrame, type: string) =>
  (EVENT_TYPES as readonly string[]).includes(type)
    ? html`${t(`admin.webhooks.event.${type as EventType}`)} (<code>${type}</code>)`
    : html`<code>${type}</code>`;

function endpointItem({
  frame,
  base,
  version,
  endpoint,
}: {
  frame: WebhooksFrame;
  base: string;
  version: number;
  endpoint: Endpoint;
}): SafeHtml {
  const { t } = frame;
  return html`<li class="card endpoint">
<p class="url"><code>${endpoint.url}</code></p>
<p>${endpoint.events ? endpoint.events.map((type, at) => html`${at ? ', ' : ''}${eventWords(frame, type)}`) : t('admin.webhooks.allEvents')} · ${endpoint.includeComment ? t('admin.webhooks.withComment') : t('admin.webhooks.withoutComment')}</p>
<form method="post" action="${base + APP_ADMIN_WEBHOOKS_PATH}">${etagField(version)}
<input type="hidden" name="action" value="remove"><input type="hidden" name="url" value="${endpoint.url}">
<button type="submit" class="secondary">${t('admin.webhooks.remove')}<span class="visually-hidden"> ${endpoint.url}</span></button></form>
</li>`;
}

function endpointForm({
  frame,
  base,
  version,
  values,
  errors,
}: {
  frame: WebhooksFrame;
  base: string;
  version: number;
  values: EndpointValues;
  errors: FieldErrors | undefined;
}): SafeHtml {
  const { t } = frame;
  const url = fieldError({ errors, field: 'url', id: 'w-url', hintId: 'w-url-hint' });
  const events = fieldError({ errors, field: 'events', id: 'w-events', hintId: 'w-events-hint' });
  const comment = fieldError({ errors, field: 'includeComment', id: 'w-includeComment' });
  return html`<section class="card form" id="endpoint-form" aria-labelledby="endpoint-form-title">
<h2 id="endpoint-form-title">${t('admin.webhooks.newEndpoint')}</h2>
<form method="post" action="${base + APP_ADMIN_WEBHOOKS_PATH}" novalidate>${etagField(version)}
<input type="hidden" name="action" value="add">
<div class="field"><label for="w-url">${t('admin.url')}</label>
<input id="w-url" name="url" type="url" inputmode="url" required maxlength="2000" autocapitalize="none" spellcheck="false" value="${values.url}"${url.attributes}${url.invalid}>
<p class="hint" id="w-url-hint">${t('admin.webhooks.urlHint')}</p>${url.html}</div>
<fieldset id="w-events" tabindex="-1"${events.attributes}><legend>${t('admin.webhooks.events')}</legend><p class="hint" id="w-events-hint">${t('admin.webhooks.eventsHint')}</p>
<div class="checks">${EVENT_TYPES.map(
    (type) =>
      html`<label class="check"><input type="checkbox" name="events" value="${type}"${values.events.includes(type) ? ' checked' : ''}> ${eventWords(frame, type)}</label>`,
  )}</div>${events.html}</fieldset>
<div class="field"><label class="check"><input type="checkbox" id="w-includeComment" name="includeComment" value="true"${values.includeComment ? ' checked' : ''}${comment.attributes}> ${t('admin.webhooks.includeComment')}</label>${comment.html}</div>
<div class="actions"><button type="submit">${t('admin.webhooks.add')}</button></div>
</form></section>`;
}
