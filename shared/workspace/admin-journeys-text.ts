import type { Locale } from '../locale.js';
import type { Indicator } from '../tenants/scales.js';

/**
 * The words of the journeys page in each language the service speaks (the tenant's `locale` chooses), beside the
 * words every admin page shares (admin-text.ts): a page bundles only its own area's. pt-BR is the reference: the
 * others are typed by it, so a missing word fails to compile.
 */
const ptBR = {
  journeysIntro:
    'Cada jornada é um momento do cliente que vira pesquisa: o indicador da nota principal, os itens avaliados, os canais e o texto da pergunta em cada idioma.',
  journeyList: 'Jornadas configuradas',
  newJourney: 'Nova jornada',
  editJourney: (name: string) => `Editar a jornada ${name}`,
  edit: 'Editar',
  cancelEdit: 'Cancelar a edição',
  saved: (slug: string) => `Jornada ${slug} salva. Vale a partir da próxima transação.`,
  slugHint: 'Letras minúsculas, números e hífens: o journeySlug que as integrações enviam.',
  indicator: 'Indicador da nota principal',
  classes: 'Itens avaliados (perguntas por item)',
  channels: 'Canais, na ordem em que são tentados',
  channelAt: (place: number) => `${place}º canal`,
  noChannel: 'Nenhum',
  question: 'Pergunta principal',
  questionHint: '{loja} é o nome da empresa. Em branco: a pergunta padrão do indicador, no idioma do cliente.',
  noClasses: 'Nenhum item',
  noneYet: 'Nenhuma jornada ainda.',
  languages: { 'pt-BR': 'Português (Brasil)', es: 'Espanhol', en: 'Inglês' } satisfies Record<Locale, string>,
  indicators: {
    nps: 'NPS (0 a 10)',
    csat: 'CSAT (1 a 5)',
    csat5Stars: 'CSAT em estrelas (1 a 5)',
    ces: 'CES, esforço (1 a 7)',
    binary: 'Sim ou não',
  } satisfies Record<Indicator, string>,
};

export type JourneysText = typeof ptBR;

const es: JourneysText = {
  journeysIntro:
    'Cada recorrido es un momento del cliente que se convierte en encuesta: el indicador de la nota principal, los ítems evaluados, los canales y el texto de la pregunta en cada idioma.',
  journeyList: 'Recorridos configurados',
  newJourney: 'Nuevo recorrido',
  editJourney: (name) => `Editar el recorrido ${name}`,
  edit: 'Editar',
  cancelEdit: 'Cancelar la edición',
  saved: (slug) => `Recorrido ${slug} guardado. Vale desde la próxima transacción.`,
  slugHint: 'Minúsculas, números y guiones: el journeySlug que envían las integraciones.',
  indicator: 'Indicador de la nota principal',
  classes: 'Ítems evaluados (preguntas por ítem)',
  channels: 'Canales, en el orden en que se intentan',
  channelAt: (place) => `Canal ${place}`,
  noChannel: 'Ninguno',
  question: 'Pregunta principal',
  questionHint: '{loja} es el nombre de la empresa. En blanco: la pregunta predeterminada del indicador, en el idioma del cliente.',
  noClasses: 'Ningún ítem',
  noneYet: 'Todavía no hay recorridos.',
  languages: { 'pt-BR': 'Portugués (Brasil)', es: 'Español', en: 'Inglés' },
  indicators: {
    nps: 'NPS (0 a 10)',
    csat: 'CSAT (1 a 5)',
    csat5Stars: 'CSAT en estrellas (1 a 5)',
    ces: 'CES, esfuerzo (1 a 7)',
    binary: 'Sí o no',
  },
};

const en: JourneysText = {
  journeysIntro:
    "Each journey is a customer moment that becomes a survey: the main score's indicator, the rated items, the channels and the question's text in each language.",
  journeyList: 'Configured journeys',
  newJourney: 'New journey',
  editJourney: (name) => `Edit the journey ${name}`,
  edit: 'Edit',
  cancelEdit: 'Cancel editing',
  saved: (slug) => `Journey ${slug} saved. It applies from the next transaction.`,
  slugHint: 'Lowercase letters, digits and dashes: the journeySlug integrations send.',
  indicator: "Main score's indicator",
  classes: 'Rated items (a question each)',
  channels: 'Channels, in the order they are tried',
  channelAt: (place) => `Channel ${place}`,
  noChannel: 'None',
  question: 'Main question',
  questionHint: "{loja} is the company's name. Blank: the indicator's default question, in the customer's language.",
  noClasses: 'No item',
  noneYet: 'No journey yet.',
  languages: { 'pt-BR': 'Portuguese (Brazil)', es: 'Spanish', en: 'English' },
  indicators: {
    nps: 'NPS (0 to 10)',
    csat: 'CSAT (1 to 5)',
    csat5Stars: 'CSAT in stars (1 to 5)',
    ces: 'CES, effort (1 to 7)',
    binary: 'Yes or no',
  },
};

export const JOURNEYS_TEXT: Record<Locale, JourneysText> = { 'pt-BR': ptBR, es, en };
