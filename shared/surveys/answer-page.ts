import { ConcurrentEditError, GoneError, NotFoundError, ValidationError } from '../errors.js';
import { isSupported, INDICATORS, type JourneyConfig, type Settings } from '../tenants/config-schema.js';
import { firstName, questionOf } from './compose.js';
import { readSurveyLink, type SurveyLink } from './link.js';
import { MAX_COMMENT_LENGTH, messagePage, surveyPage, unsubscribePage, type ScaleQuestion, type SurveyPageView } from './page-html.js';
import type { StoreNames } from './ports.js';
import type { SurveyBody } from './schema.js';
import { textProblem } from '../text.js';

/**
 * The survey page behind a link: what GET shows and what POST records. Every answer is an HTML page with a status:
 * 200 the form (or thanks, once answered), 303 after a recorded answer, 400 an invalid form shown again with its
 * problems, 404 an unknown or tampered link, 409 an attempt answered already, 410 an expired link.
 */

export interface PageTransaction {
  id: number;
  journeyId: number;
  journeySlug: string;
  storeId: number;
  customerId: number;
  customerName: string | null;
  attemptId: number | null;
  status: string;
  /** Its customer was erased: the survey is closed. */
  erased: boolean;
}

export interface PagePorts {
  transaction(tenantId: number, id: number): Promise<PageTransaction | undefined>;
  settings(tenantId: number): Promise<Settings>;
  stores: StoreNames;
  /**
   * The one answer path (the chatbot's POST /survey): the answer becomes the transaction's rating and evaluation.
   * `read` is what `transaction` answered for this request, so that the transaction need not be read again.
   */
  answer(tenantId: number, body: SurveyBody, read: PageTransaction): Promise<unknown>;
  optOut(tenantId: number, customerId: number): Promise<void>;
}

export interface Page {
  status: number;
  html: string;
  /** A relative URL to go to (303). */
  location?: string;
}

const page = (status: number, html: string): Page => ({ status, html });
const NOT_FOUND = () =>
  page(404, messagePage('Pesquisa não encontrada', 'Este link não é válido. Confira se ele foi copiado por inteiro.'));
const EXPIRED = () =>
  page(410, messagePage('Pesquisa encerrada', 'O prazo para responder a esta pesquisa terminou. Obrigado mesmo assim!'));
const CLOSED = () => page(410, messagePage('Pesquisa encerrada', 'Esta pesquisa não está mais disponível. Obrigado mesmo assim!'));
const THANKS = () => page(200, messagePage('Obrigado!', 'Sua resposta foi registrada. Ela ajuda a melhorar o atendimento.'));
const ANSWERED = () => page(409, messagePage('Pesquisa já respondida', 'Esta pesquisa já foi respondida. Obrigado pela sua participação!'));

interface Opened {
  link: SurveyLink;
  transaction: PageTransaction;
  journey: JourneyConfig;
  settings: Settings;
}

/** The attempt a token opens, or the page that says why it does not. */
async function open(token: string, ports: PagePorts, secret: string, now: Date, allowExpired = false): Promise<Opened | Page> {
  const checked = readSurveyLink(token, secret, now);
  if (checked.status === 'unknown') return NOT_FOUND();
  if (checked.status === 'expired' && !allowExpired) return EXPIRED();
  const { link } = checked;
  const [transaction, settings] = await Promise.all([ports.transaction(link.tenantId, link.transactionId), ports.settings(link.tenantId)]);
  // Every attempt's link opens the survey until it expires.
  if (!transaction || link.attemptId < 1 || link.attemptId > (transaction.attemptId ?? 0)) return NOT_FOUND();
  // An erased customer's survey is closed: an answer would bring personal data back (the unsubscribe page stays).
  if (transaction.erased && !allowExpired) return CLOSED();
  const journey = settings.journeys.find((j) => j.id === transaction.journeyId);
  if (!journey) return NOT_FOUND();
  return { link, transaction, journey, settings };
}

const isPage = (value: Opened | Page): value is Page => 'html' in value;

async function view(opened: Opened, ports: PagePorts, token: string, chosen: Answer, problems: string[]): Promise<SurveyPageView> {
  const { journey, settings, transaction } = opened;
  const store = (await ports.stores.tradeName(opened.link.tenantId, transaction.storeId)) || 'nossa loja';
  return {
    token,
    store,
    customerFirstName: firstName(transaction.customerName),
    question: { field: 'score', legend: questionOf(journey, store), indicator: journey.indicator, chosen: chosen.score, optional: false },
    classes: journey.classes.flatMap((id) => {
      const c = settings.classes.find((x) => x.id === id);
      return c
        ? [
            {
              field: `class_${c.id}`,
              legend: c.label,
              indicator: c.type,
              chosen: chosen.classes.get(c.id),
              optional: true,
            } as ScaleQuestion,
          ]
        : [];
    }),
    comment: chosen.comment,
    problems,
  };
}

interface Answer {
  score: number | undefined;
  classes: Map<number, number>;
  comment: string;
}

/** GET /s/{token}: the form, with `score` chosen when the link carried one (nothing is recorded). */
export async function showSurvey(
  token: string,
  score: string | undefined,
  ports: PagePorts,
  secret: string,
  now = new Date(),
): Promise<Page> {
  const opened = await open(token, ports, secret, now);
  if (isPage(opened)) return opened;
  if (opened.transaction.status === 'answered') return THANKS();
  const preset =
    score !== undefined && /^\d{1,2}$/.test(score) && isSupported(opened.journey.indicator, Number(score)) ? Number(score) : undefined;
  return page(200, surveyPage(await view(opened, ports, token, { score: preset, classes: new Map(), comment: '' }, [])));
}

/** POST /s/{token}: records the answer through the one answer path, with the attempt's channel as its source. */
export async function submitSurvey(
  token: string,
  form: URLSearchParams,
  ports: PagePorts,
  secret: string,
  now = new Date(),
): Promise<Page> {
  const opened = await open(token, ports, secret, now);
  if (isPage(opened)) return opened;
  if (opened.transaction.status === 'answered') return ANSWERED();
  const { answer, problems } = readForm(form, opened);
  if (problems.length || answer.score === undefined)
    return page(400, surveyPage(await view(opened, ports, token, answer, problems.length ? problems : ['Escolha uma nota.'])));
  try {
    await ports.answer(
      opened.link.tenantId,
      {
        transactionId: opened.transaction.id,
        attemptId: opened.link.attemptId,
        journey: opened.journey.slug,
        score: answer.score,
        classes: [...answer.classes].map(([classId, score]) => {
          const configured = opened.settings.classes.find((c) => c.id === classId)!;
          return { classId, label: configured.label, type: configured.type, score };
        }),
        ...(answer.comment ? { comment: answer.comment } : {}),
        source: opened.link.channel,
      },
      opened.transaction,
    );
  } catch (error) {
    if (error instanceof ConcurrentEditError) return ANSWERED();
    // Erased, or expired, while the form was being filled in (the answer path refuses both).
    if (error instanceof GoneError) return EXPIRED();
    if (error instanceof NotFoundError) return CLOSED();
    if (error instanceof ValidationError)
      return page(
        400,
        surveyPage(
          await view(
            opened,
            ports,
            token,
            answer,
            error.errors.map((e) => e.message),
          ),
        ),
      );
    throw error;
  }
  return { status: 303, html: messagePage('Obrigado!', 'Sua resposta foi registrada.'), location: token };
}

const FIELD = /^(score|comment|class_(\d{1,9}))$/;

/** The form's fields, each checked against the journey: a score on its scale, classes of the journey, a bounded comment. */
function readForm(form: URLSearchParams, opened: Opened): { answer: Answer; problems: string[] } {
  const problems: string[] = [];
  const answer: Answer = { score: undefined, classes: new Map(), comment: '' };
  const scaleOf = (indicator: keyof typeof INDICATORS) => `de ${INDICATORS[indicator].min} a ${INDICATORS[indicator].max}`;
  const seen = new Set<string>();
  for (const [name, value] of form) {
    const match = FIELD.exec(name);
    if (!match) {
      problems.push(`O campo "${name.slice(0, 40)}" não faz parte desta pesquisa.`);
      continue;
    }
    if (seen.has(name)) {
      problems.push(`O campo "${name}" foi enviado mais de uma vez.`);
      continue;
    }
    seen.add(name);
    if (name === 'comment') {
      if ([...value].length > MAX_COMMENT_LENGTH) problems.push(`O comentário pode ter até ${MAX_COMMENT_LENGTH} caracteres.`);
      // The API's one text rule (shared/text.ts), said in the page's language.
      if (textProblem(value, { lines: true })) problems.push('O comentário não pode conter caracteres de controle ou de direção de texto.');
      answer.comment = value.trim().slice(0, 4 * MAX_COMMENT_LENGTH);
      continue;
    }
    if (value === '') continue;
    const score = /^\d{1,2}$/.test(value) ? Number(value) : NaN;
    if (name === 'score') {
      if (isSupported(opened.journey.indicator, score)) answer.score = score;
      else problems.push(`A nota deve ser ${scaleOf(opened.journey.indicator)}.`);
      continue;
    }
    const classId = Number(match[2]);
    const configured = opened.journey.classes.includes(classId) ? opened.settings.classes.find((c) => c.id === classId) : undefined;
    if (!configured) problems.push(`A pergunta ${classId} não faz parte desta pesquisa.`);
    else if (!isSupported(configured.type, score)) problems.push(`A nota de "${configured.label}" deve ser ${scaleOf(configured.type)}.`);
    else answer.classes.set(classId, score);
  }
  if (answer.score === undefined && !problems.some((p) => p.startsWith('A nota deve'))) problems.unshift('Escolha uma nota.');
  return { answer, problems };
}

/** GET /s/{token}/unsubscribe: asks to confirm. Links keep this page after they expire. */
export async function showUnsubscribe(token: string, ports: PagePorts, secret: string, now = new Date()): Promise<Page> {
  const opened = await open(token, ports, secret, now, true);
  return isPage(opened) ? opened : page(200, unsubscribePage(token));
}

/** POST /s/{token}/unsubscribe (the page's button, or a mail client's RFC 8058 one-click post): opts the customer out. */
export async function unsubscribe(token: string, ports: PagePorts, secret: string, now = new Date()): Promise<Page> {
  const opened = await open(token, ports, secret, now, true);
  if (isPage(opened)) return opened;
  await ports.optOut(opened.link.tenantId, opened.transaction.customerId);
  return page(200, messagePage('Pronto', 'Você não receberá mais pesquisas desta empresa.'));
}
