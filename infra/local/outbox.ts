import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { html } from '../../shared/html.js';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from '../../shared/events/signature.js';
import { listen } from './listen.js';

/**
 * The local outbox: where SMS, WhatsApp and chatbot webhooks go when no AWS emulator exists. The real SDK clients are
 * pointed at it, and it answers their calls as AWS End User Messaging SMS (`SendTextMessage`, JSON 1.0 protocol) and
 * Social (`SendWhatsAppMessage`, REST JSON) do, so the SDKs' serialisation is exercised for real. Webhooks to
 * `/webhooks/<tenant>` (the chatbot hand-off) and `/events/<tenant>` are verified as a tenant's receiver would, with
 * the Standard Webhooks library and the endpoint's secrets (valid when one of them verifies). A POST to any other path
 * (but `/faults` and `/clear`) is a Slack or Teams message, as those webhooks take any path. Everything received is
 * listed at `GET /messages` (JSON; `?since=<ISO instant>` for what came from then on) and shown at `/`.
 *
 * What it refuses as the services would: a destination number that is not E.164 (ValidationException), and the
 * next calls to one destination while a fault is armed for it with `POST /faults`
 * ({ "channel": "sms", "to": "+5511...", "status": 429, "count": 2 }: 429 throttles, 400 refuses the number, 5xx fails).
 */
export interface OutboxMessage {
  channel: 'sms' | 'whatsapp' | 'webhook' | 'event' | 'chat';
  /** The number an SMS, WhatsApp message or hand-off is for; an event's or chat message's path and query. */
  to: string | null;
  text: string;
  link: string | null;
  transactionId: number | null;
  attemptId: number | null;
  receivedAt: string;
  signatureValid: boolean | null;
  /** The webhook's Standard Webhooks headers as received (webhooks and events only), to verify again. */
  headers?: { [WEBHOOK_ID_HEADER]: string; [WEBHOOK_TIMESTAMP_HEADER]: string; [WEBHOOK_SIGNATURE_HEADER]: string };
  /** The WhatsApp template and its language code, as sent (WhatsApp only). */
  template?: { name: string; language: string };
  /** An event's id (its webhook-id) and type (events only). */
  eventId?: string;
  eventType?: string;
}

export interface Outbox {
  url: string;
  messages: OutboxMessage[];
  stop(): Promise<void>;
}

const E164 = /^\+[1-9]\d{7,14}$/;
const LINK = /https?:\/\/\S+\/s\/[\w-]+/;

export async function startOutbox(options: {
  port: number;
  host?: string;
  /**
   * The secrets a receiver of this endpoint may hold now (the current one, and the one before during a rotation):
   * by the tenant named in the webhook's path, and the chatbot hand-off or the event endpoint's URL as configured.
   */
  signingSecrets: (tenant: string, endpoint: { chatbot: true } | { url: string }) => Promise<string[]>;
  /** The transaction and attempt a survey link names, to list them beside each message. */
  readLink?: (link: string) => { transactionId: number; attemptId: number } | undefined;
}): Promise<Outbox> {
  const messages: OutboxMessage[] = [];
  const faults: { channel: string; to: string; status: number; count: number }[] = [];
  const record = (message: Omit<OutboxMessage, 'receivedAt' | 'link'> & { link?: string | null }) => {
    const link = message.link === null ? null : (LINK.exec(message.text)?.[0] ?? null);
    const named = link ? options.readLink?.(link) : undefined;
    messages.push({ ...message, ...named, link, receivedAt: new Date().toISOString() });
  };
  /** Verifies a webhook as its receiver would: valid when one of the endpoint's secrets verifies it. */
  const verified = async (req: IncomingMessage, body: string, tenant: string, endpoint: { chatbot: true } | { url: string }) => {
    const headers = {
      [WEBHOOK_ID_HEADER]: header(req, WEBHOOK_ID_HEADER) ?? '',
      [WEBHOOK_TIMESTAMP_HEADER]: header(req, WEBHOOK_TIMESTAMP_HEADER) ?? '',
      [WEBHOOK_SIGNATURE_HEADER]: header(req, WEBHOOK_SIGNATURE_HEADER) ?? '',
    };
    const secrets = await options.signingSecrets(tenant, endpoint);
    const signatureValid = secrets.some((secret) => {
      try {
        new Webhook(secret).verify(body, headers);
        return true;
      } catch {
        return false;
      }
    });
    return { headers, signatureValid };
  };

  const fault = (channel: string, to: string | undefined) => {
    const armed = faults.find((f) => f.channel === channel && f.to === to && f.count > 0);
    if (!armed) return undefined;
    armed.count--;
    return armed.status;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://outbox');
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(value));
    };
    const awsError = (status: number, type: string, message: string) =>
      json(status, { __type: type, message, Message: message }, { 'x-amzn-errortype': type });

    if (req.method === 'GET' && url.pathname === '/messages') {
      // `?since=<instant>`: only what came at or after it (a test reads its own, not everything a run sent).
      const since = url.searchParams.get('since');
      if (since === null) return json(200, messages);
      if (Number.isNaN(Date.parse(since)))
        return json(400, { message: 'since must be an ISO 8601 instant, such as 2026-01-31T12:00:00.000Z' });
      const from = new Date(since).toISOString();
      return json(
        200,
        messages.filter((message) => message.receivedAt >= from),
      );
    }
    if (req.method === 'GET' && url.pathname === '/') {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
      });
      return res.end(outboxPage(messages));
    }
    if (req.method === 'POST' && url.pathname === '/faults') {
      faults.push(JSON.parse(body) as (typeof faults)[number]);
      return json(200, { armed: true });
    }
    if (req.method === 'POST' && url.pathname === '/clear') {
      messages.length = 0;
      return json(200, { cleared: true });
    }

    // AWS End User Messaging SMS: JSON 1.0, the operation in X-Amz-Target.
    const target = req.headers['x-amz-target'];
    if (req.method === 'POST' && target === 'PinpointSMSVoiceV2.SendTextMessage') {
      const input = JSON.parse(body) as { DestinationPhoneNumber?: string; MessageBody?: string; OriginationIdentity?: string };
      const status = fault('sms', input.DestinationPhoneNumber);
      if (status) return awsError(status, ...SMS_FAULTS(status, input.DestinationPhoneNumber ?? ''));
      if (!input.DestinationPhoneNumber || !E164.test(input.DestinationPhoneNumber))
        return awsError(400, 'ValidationException', 'The destination phone number is not valid.');
      record({
        channel: 'sms',
        to: input.DestinationPhoneNumber,
        text: input.MessageBody ?? '',
        transactionId: null,
        attemptId: null,
        signatureValid: null,
      });
      return json(200, { MessageId: randomUUID() });
    }
    if (req.method === 'POST' && typeof target === 'string')
      return awsError(400, 'UnknownOperationException', `${target} is not served here`);

    // AWS End User Messaging Social: REST JSON.
    if (req.method === 'POST' && url.pathname === '/v1/whatsapp/send') {
      const input = JSON.parse(body) as { originationPhoneNumberId?: string; message?: string; metaApiVersion?: string };
      let message: {
        to?: string;
        template?: { name?: string; language?: { code?: string }; components?: { parameters?: { text?: string }[] }[] };
      };
      try {
        message = JSON.parse(Buffer.from(input.message ?? '', 'base64').toString('utf8')) as typeof message;
      } catch {
        return awsError(400, 'ValidationException', 'The message is not a WhatsApp message object.');
      }
      const to = message.to?.startsWith('+') ? message.to : `+${message.to ?? ''}`;
      const status = fault('whatsapp', to);
      if (status) return awsError(status, ...WHATSAPP_FAULTS(status));
      if (!input.originationPhoneNumberId || !input.metaApiVersion || !E164.test(to))
        return awsError(400, 'ValidationException', 'The origination number, the API version and a valid destination are required.');
      const text = (message.template?.components ?? [])
        .flatMap((c) => c.parameters ?? [])
        .map((p) => p.text ?? '')
        .join(' | ');
      const template = { name: message.template?.name ?? '', language: message.template?.language?.code ?? '' };
      record({ channel: 'whatsapp', to, text, transactionId: null, attemptId: null, signatureValid: null, template });
      return json(200, { messageId: `wamid.${randomUUID()}` });
    }

    // A tenant's chatbot webhook.
    const webhook = /^\/webhooks\/([\w-]+)$/.exec(url.pathname);
    if (req.method === 'POST' && webhook) {
      const payload = JSON.parse(body) as { transactionId?: number; attemptId?: number; phone?: string; journey?: string };
      const status = fault('webhook', payload.phone);
      if (status) return json(status, { error: 'injected fault' });
      const { headers, signatureValid } = await verified(req, body, webhook[1]!, { chatbot: true });
      record({
        channel: 'webhook',
        to: payload.phone ?? null,
        text: body,
        link: null,
        transactionId: payload.transactionId ?? null,
        attemptId: payload.attemptId ?? null,
        signatureValid,
        headers,
      });
      return json(signatureValid ? 200 : 401, { received: signatureValid });
    }
    // A tenant's event endpoint: `?status=NNN` makes it answer that status instead (a failing endpoint, for tests).
    const events = /^\/events\/([\w-]+)$/.exec(url.pathname);
    if (req.method === 'POST' && events) {
      // The URL as the tenant configured it (and as the sender called it): the endpoint's identity.
      const { headers, signatureValid } = await verified(req, body, events[1]!, { url: `http://${req.headers.host}${req.url}` });
      const forced = Number(url.searchParams.get('status')) || undefined;
      record({
        channel: 'event',
        to: req.url ?? null,
        text: body,
        link: null,
        transactionId: null,
        attemptId: null,
        signatureValid,
        headers,
        eventId: headers[WEBHOOK_ID_HEADER],
        eventType: eventType(body),
      });
      return json(forced ?? (signatureValid ? 200 : 401), { received: signatureValid });
    }
    // A tenant's Slack or Teams webhook (unsigned, as theirs are), at any other path (a Slack or Teams address's path
    // works as it is, `/chat/<name>` as well): `?status=NNN` makes it answer that status instead.
    if (req.method === 'POST') {
      const forced = Number(url.searchParams.get('status')) || undefined;
      record({ channel: 'chat', to: req.url ?? null, text: body, link: null, transactionId: null, attemptId: null, signatureValid: null });
      return json(forced ?? 200, { ok: !forced });
    }
    return json(404, { message: 'Not found' });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: (error as Error).message }));
    });
  });
  return { ...(await listen(server, options.port, options.host)), messages };
}

/** The error each service answers for an injected status (a refusal names the number, as providers' words may). */
const SMS_FAULTS = (status: number, to: string): [string, string] =>
  status === 429
    ? ['ThrottlingException', 'Rate exceeded']
    : status < 500
      ? ['ValidationException', `The destination phone number ${to} is not valid.`]
      : ['InternalServerException', 'Internal failure'];
const WHATSAPP_FAULTS = (status: number): [string, string] =>
  status === 429
    ? ['ThrottledRequestException', 'Rate exceeded']
    : status < 500
      ? ['ValidationException', 'The recipient is not a valid WhatsApp user.']
      : ['InternalServiceException', 'Internal failure'];

/** An event's type, from its body; empty for a body that is not an event. */
const eventType = (body: string): string => {
  try {
    const type = (JSON.parse(body) as { type?: unknown }).type;
    return typeof type === 'string' ? type : '';
  } catch {
    return '';
  }
};

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function outboxPage(messages: OutboxMessage[]): string {
  const rows = [...messages]
    .reverse()
    .map(
      (m) =>
        html`<tr><td>${m.receivedAt}</td><td>${m.channel}</td><td>${m.to ?? ''}</td><td>${m.text}</td><td>${m.link && html`<a href="${m.link}">abrir</a>`}</td><td>${m.signatureValid === null ? '' : m.signatureValid ? 'valid' : 'INVALID'}</td></tr>`,
    );
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Local outbox</title>
<style>body{font:14px system-ui,sans-serif;margin:1rem}table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:4px;text-align:left;vertical-align:top}td:nth-child(4){word-break:break-all}</style></head>
<body><h1>Local outbox</h1><p>SMS, WhatsApp messages and chatbot webhooks the service sent, newest first. JSON: <a href="/messages">/messages</a>.</p>
<table><thead><tr><th>received</th><th>channel</th><th>to</th><th>text</th><th>link</th><th>signature</th></tr></thead><tbody>${rows}</tbody></table></body></html>`.toString();
}
