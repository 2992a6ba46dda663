import { randomInt } from 'node:crypto';
import { brandColour, brandOf, safeLogo, type BrandSource } from '../brand/brand.js';
import { html } from '../html.js';
import { alertTranslator as translator } from '../i18n/messages.js';
import { DEFAULT_LOCALE, type Locale } from '../locale.js';
import { StateConflictError } from '../errors.js';
import { mailbox } from '../mailbox.js';

/**
 * The managers' sign-in passwords as the user pool requires them (infra/constructs/managers.ts sets this policy on the
 * pool): the temporary password of an invitation is made to meet it.
 */
export const PASSWORD_POLICY = { minLength: 12, requireLowercase: true, requireUppercase: true, requireDigits: true, requireSymbols: true };

const CLASSES = ['abcdefghijkmnopqrstuvwxyz', 'ABCDEFGHJKLMNPQRSTUVWXYZ', '23456789', '!#%+-=?@^_'];
const TEMPORARY_LENGTH = 16;

/**
 * A temporary password for an invitation: 16 characters drawn with the crypto RNG, at least one of each class the
 * policy requires, in random order. Letters that read alike (l, 1, O, 0) are left out, since a person types it.
 */
export function temporaryPassword(): string {
  const all = CLASSES.join('');
  const chars = [...CLASSES.map((set) => set[randomInt(set.length)]!)];
  while (chars.length < Math.max(TEMPORARY_LENGTH, PASSWORD_POLICY.minLength)) chars.push(all[randomInt(all.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

export interface InvitationInput {
  email: string;
  temporaryPassword: string;
  /** The workspace's sign-in page. */
  link: string;
  locale: Locale;
  brand: { name: string; colour?: string; logoUrl?: string };
}

/**
 * The invitation e-mail to a new manager, in the tenant's language and brand (its logo and colour head it): their
 * user name, the temporary password, the sign-in link, and that the password is changed at the first sign-in.
 */
export function invitationEmail({ email, temporaryPassword, link, locale, brand }: InvitationInput) {
  const t = translator(locale);
  const company = brand.name;
  const colour = brandColour(brand.colour);
  const logo = safeLogo(brand.logoUrl)?.url;
  const subject = t('invitation.subject', { company });
  const lines = [t('invitation.intro', { company }), t('invitation.user', { email })];
  const document = html`<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>${subject}</title></head>
<body style="font:16px/1.5 Arial,sans-serif;color:#111827;margin:0;padding:16px;border-top:4px solid ${colour}">
<p style="margin:0 0 12px;font-weight:bold">${logo && html`<img src="${logo}" alt="" height="40" style="display:block;max-height:40px;max-width:160px;margin:0 0 8px;border:0">`}${company}</p>
${lines.map((line) => html`<p style="margin:0 0 12px">${line}</p>\n`)}<p style="margin:0 0 12px">${t('invitation.password')} <code style="font:bold 18px monospace">${temporaryPassword}</code></p>
<p style="margin:0 0 12px">${t('invitation.change')}</p>
<p style="margin:16px 0 0"><a href="${link}" style="display:inline-block;padding:12px 16px;border-radius:6px;background:${colour};color:#ffffff;text-decoration:none">${t('invitation.signIn')}</a></p>
</body></html>`;
  const text = `${company}\n\n${lines.join('\n')}\n${t('invitation.password')} ${temporaryPassword}\n${t('invitation.change')}\n\n${t('invitation.signIn')}: ${link}\n`;
  return { subject, html: document.toString(), text };
}

/** A tenant without an e-mail sender cannot e-mail an invitation (the user pool sends none of its own). */
export class NoSenderError extends StateConflictError {
  constructor() {
    super('This tenant has no e-mail sender (delivery.email.from): set one, then send the invitation again.');
  }
}

/** One invitation's e-mail as the provider takes it (the case alerts' SES adapter sends it). */
export interface InvitationMessage {
  from: string;
  to: string[];
  subject: string;
  html: string;
  text: string;
}

export interface InvitationPorts {
  settings(tenantId: number): Promise<BrandSource & { locale?: Locale | undefined }>;
  email(message: InvitationMessage): Promise<void>;
  /** The public API's base URL, where the workspace is: the sign-in link's. */
  baseUrl(): string;
  /** The workspace's sign-in page under the base URL (shared/session/paths.ts). */
  signInPath: string;
}

/**
 * The tenant's invitations: `prepare` reads the tenant's language, brand and sender and answers the function that
 * e-mails one temporary password, or undefined for a tenant without an e-mail sender.
 */
export const invitations = (ports: InvitationPorts) => ({
  async prepare(tenantId: number): Promise<((invited: { email: string; temporaryPassword: string }) => Promise<void>) | undefined> {
    const settings = await ports.settings(tenantId);
    const sender = settings.delivery.email?.from;
    if (!sender) return undefined;
    const base = ports.baseUrl();
    const brand = brandOf(settings, { baseUrl: base });
    return async ({ email, temporaryPassword }) => {
      const message = invitationEmail({
        email,
        temporaryPassword,
        link: `${base}${ports.signInPath}`,
        locale: settings.locale ?? DEFAULT_LOCALE,
        brand,
      });
      await ports.email({ from: mailbox(sender, brand.senderName), to: [email], ...message });
    };
  },
});
export type Invitations = ReturnType<typeof invitations>;
