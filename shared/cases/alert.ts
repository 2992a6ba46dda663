import { alertTranslator as translator } from '../i18n/messages.js';
import { timesOf } from '../i18n/times.js';
import type { Locale } from '../locale.js';
import { appCasePath } from '../session/paths.js';
import { html } from '../html.js';
import type { CaseRecord } from './record.js';

/** The workspace page of a case, which the alert and the escalation link to. */
export const casePagePath = (id: number) => appCasePath(id);

export interface AlertInput {
  record: CaseRecord;
  company: string;
  store: string;
  employee: string;
  /** The link to the case in the workspace. */
  link: string;
  locale: Locale;
  timeZone: string;
  /** The alert when the case opens, or its escalation when it is overdue (shared/cases/overdue.ts). */
  kind?: 'alert' | 'escalation';
}

/** The alert e-mail to a store's managers: the score, comment, store, employee, the owner if any, and the case's link. */
export function alertEmail({ record, company, store, employee, link, locale, timeZone, kind = 'alert' }: AlertInput) {
  const t = translator(locale);
  const due = timesOf(locale, timeZone).when(record.dueAt);
  const subject = t(kind === 'alert' ? 'caseAlert.subject' : 'caseEscalation.subject', { score: record.score, store });
  const lines = [
    kind === 'alert'
      ? t('caseAlert.intro', { score: record.score, store, employee })
      : t('caseEscalation.intro', { score: record.score, store, employee, due }),
    record.comment ? t('caseAlert.comment', { comment: record.comment }) : t('caseAlert.noComment'),
    ...(record.number !== null ? [t('caseAlert.number', { number: record.number })] : []),
    t('caseAlert.due', { due }),
    ...(record.owner ? [t('caseAlert.owner', { owner: record.owner })] : []),
  ];
  const document = html`<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>${subject}</title></head>
<body style="font:16px/1.5 Arial,sans-serif;color:#111827;margin:0;padding:16px">
<p style="margin:0 0 8px;font-weight:bold">${company}</p>
${lines.map((line, at) => html`${at > 0 && '\n'}<p style="margin:0 0 12px">${line}</p>`)}
<p style="margin:16px 0 0"><a href="${link}" style="display:inline-block;padding:12px 0">${t('caseAlert.open')}</a></p>
</body></html>`;
  const text = `${company}\n\n${lines.join('\n')}\n\n${t('caseAlert.open')}: ${link}\n`;
  return { subject, html: document.toString(), text };
}
