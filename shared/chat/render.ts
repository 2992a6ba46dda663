import { alertTranslator } from '../i18n/messages.js';
import type { ChatKind, ChatMessageInput } from './ports.js';

/*
 * The chat messages, as pure functions of what they say: Slack's incoming webhook JSON (`text`, the notification's
 * words, and `blocks`), and a Teams Workflows webhook's message with an Adaptive Card (Office 365 connectors are
 * retired). The customer's words go in plain text only (Slack's `plain_text`, Teams' TextRun), so that a comment
 * cannot format a link or mention anyone. Never a contact of the customer's: the input has none.
 */

/** Slack's longest section text is 3,000 characters, a header's 150; Teams takes more, but a chat is no place for more. */
const MAX_TEXT = 2900;
const MAX_TITLE = 150;
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The title, the lines and the button's words and link of a message, in the tenant's language. */
export function chatWords(input: ChatMessageInput): { title: string; lines: string[]; open: string; link: string } {
  if (input.type === 'digest' || input.type === 'score.drop')
    return { title: input.title, lines: input.lines, open: input.open, link: input.link };
  const t = alertTranslator(input.locale);
  const { score, store, employee, due, number } = input;
  const opened = input.type === 'case.opened';
  const lines = [
    opened || due === null ? t('caseAlert.intro', { score, store, employee }) : t('caseEscalation.intro', { score, store, employee, due }),
    ...(number !== null ? [t('caseAlert.number', { number })] : []),
    ...(input.comment === undefined ? [] : [input.comment ? t('caseAlert.comment', { comment: input.comment }) : t('caseAlert.noComment')]),
    ...(opened && due !== null ? [t('caseAlert.due', { due })] : []),
  ];
  return {
    title: t(opened ? 'caseAlert.subject' : 'caseEscalation.subject', { score, store }),
    lines,
    open: t('caseAlert.open'),
    link: input.link,
  };
}

/** A Slack incoming webhook's message: the title as `text` (what a notification shows), blocks with a button to the case. */
export function slackMessage(input: ChatMessageInput) {
  const { title, lines, open, link } = chatWords(input);
  return {
    text: cut(title, MAX_TEXT),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: cut(title, MAX_TITLE) } },
      ...lines.map((line) => ({ type: 'section', text: { type: 'plain_text', text: cut(line, MAX_TEXT) } })),
      { type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: open }, url: link, style: 'primary' }] },
    ],
  };
}

/** A Teams Workflows webhook's message: one Adaptive Card (1.4), its lines as plain text runs, a button to the case. */
export function teamsMessage(input: ChatMessageInput) {
  const { title, lines, open, link } = chatWords(input);
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: cut(title, MAX_TITLE), weight: 'Bolder', size: 'Medium', wrap: true },
            ...lines.map((line) => ({ type: 'RichTextBlock', inlines: [{ type: 'TextRun', text: cut(line, MAX_TEXT) }] })),
          ],
          actions: [{ type: 'Action.OpenUrl', title: open, url: link }],
        },
      },
    ],
  };
}

/** The message an endpoint of this kind takes. */
export const chatMessage = (kind: ChatKind, input: ChatMessageInput) => (kind === 'slack' ? slackMessage(input) : teamsMessage(input));
