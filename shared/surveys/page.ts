import { translator, type CustomerKey } from '../i18n/messages.js';
import { messagePage, type PageFrame, type Rendered } from './page-html.js';

/**
 * What a customer's page answers, and the helpers every customer page builds it with: the survey link's pages
 * (answer-page.ts) and the in-store entries' (shared/in-store/).
 */
export interface Page extends Rendered {
  status: number;
  /** A relative URL to go to (303). */
  location?: string;
  /** Set-Cookie values (a QR page's answered mark). */
  cookies?: string[];
  /** A 429's Retry-After: the seconds until the bound allows another answer. */
  retryAfter?: number;
}

/** A rendered page with its status (and its redirect, cookies or Retry-After). */
export const page = (status: number, rendered: Rendered, extra: Partial<Page> = {}): Page => ({ status, ...rendered, ...extra });

/** A page of a title and a text from the catalogue (`{company}` is the tenant's name). */
export const told = ({ status, frame, title, text }: { status: number; frame: PageFrame; title: CustomerKey; text: CustomerKey }): Page => {
  const t = translator(frame.locale);
  return page(status, messagePage(frame, { title: t(title), text: t(text, { company: frame.brand?.name ?? '' }) }));
};

/** Whether a step answered its page (an error, a redirect) instead of going on with what it opened. */
export const isPage = (value: object): value is Page => 'html' in value;
