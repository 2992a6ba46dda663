import type { Locale } from '../locale.js';

/**
 * The words of the event endpoints page in each language the service speaks (the tenant's `locale` chooses), beside the
 * words every admin page shares (admin-text.ts): a page bundles only its own area's. pt-BR is the reference: the
 * others are typed by it, so a missing word fails to compile.
 */
const ptBR = {
  webhooksIntro:
    'Endereços que recebem os eventos da empresa, assinados conforme o Standard Webhooks, cada um com o seu segredo. No máximo 5.',
  endpointList: 'Endpoints configurados',
  noEndpoints: 'Nenhum endpoint ainda.',
  newEndpoint: 'Novo endpoint',
  urlHint: 'https://… num endereço público (http e endereços locais só numa instalação local).',
  events: 'Eventos',
  eventsHint: 'Nenhum marcado: todos os eventos.',
  allEvents: 'Todos os eventos',
  includeComment: 'Enviar o comentário do cliente em survey.answered',
  withComment: 'com o comentário do cliente',
  withoutComment: 'sem o comentário do cliente',
  add: 'Adicionar',
  remove: 'Remover',
  added: 'Endpoint adicionado. O segredo de assinatura de um endpoint novo é mostrado uma vez a quem o gera: peça ao operador.',
  removed: 'Endpoint removido.',
  unknownEndpoint: 'Este endpoint não está mais na configuração.',
};

export type WebhooksText = typeof ptBR;

const es: WebhooksText = {
  webhooksIntro:
    'Direcciones que reciben los eventos de la empresa, firmados según Standard Webhooks, cada una con su propio secreto. Como máximo 5.',
  endpointList: 'Endpoints configurados',
  noEndpoints: 'Todavía no hay endpoints.',
  newEndpoint: 'Nuevo endpoint',
  urlHint: 'https://… en una dirección pública (http y direcciones locales solo en una instalación local).',
  events: 'Eventos',
  eventsHint: 'Ninguno marcado: todos los eventos.',
  allEvents: 'Todos los eventos',
  includeComment: 'Enviar el comentario del cliente en survey.answered',
  withComment: 'con el comentario del cliente',
  withoutComment: 'sin el comentario del cliente',
  add: 'Agregar',
  remove: 'Quitar',
  added: 'Endpoint agregado. El secreto de firma de un endpoint nuevo se muestra una vez a quien lo genera: pídalo al operador.',
  removed: 'Endpoint quitado.',
  unknownEndpoint: 'Este endpoint ya no está en la configuración.',
};

const en: WebhooksText = {
  webhooksIntro: "Addresses that receive the company's events, signed per Standard Webhooks, each with a secret of its own. At most 5.",
  endpointList: 'Configured endpoints',
  noEndpoints: 'No endpoint yet.',
  newEndpoint: 'New endpoint',
  urlHint: 'https://… on a public host (http and local addresses only on a local deployment).',
  events: 'Events',
  eventsHint: 'None checked: every event.',
  allEvents: 'Every event',
  includeComment: "Send the customer's comment in survey.answered",
  withComment: "with the customer's comment",
  withoutComment: "without the customer's comment",
  add: 'Add',
  remove: 'Remove',
  added: "Endpoint added. A new endpoint's signing secret is shown once to whoever makes it: ask the operator.",
  removed: 'Endpoint removed.',
  unknownEndpoint: 'This endpoint is no longer in the configuration.',
};

export const WEBHOOKS_TEXT: Record<Locale, WebhooksText> = { 'pt-BR': ptBR, es, en };
