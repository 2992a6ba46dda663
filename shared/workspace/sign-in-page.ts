import { html } from '../html.js';
import { localeOfRequest, workspaceTranslator, type Translate, type WorkspaceKey } from '../i18n/messages.js';
import { safeNext } from '../session/cookies.js';
import { NEW_PASSWORD_PATH, SIGN_IN_PATH } from '../session/paths.js';
import type { SessionPages, SignInForm, SignInProblem } from '../session/ports.js';
import type { WebAnswer } from '../web-answer.js';
import { layout } from './layout.js';

// Before signing in there is no tenant, so no tenant's language or brand: the browser's language, the service's name.
const error = (t: Translate<WorkspaceKey>, problem: SignInProblem | undefined) =>
  problem && html`<p class="error" role="alert" id="form-error">${t(`signIn.problem.${problem}`)}</p>`;
const described = (problem: SignInProblem | undefined) => problem && html` aria-describedby="form-error"`;

/** The sign-in form: e-mail and password, posted to the service (never to Cognito from the page). */
export function signInPage({ base, next, locale, problem, email = '' }: SignInForm & { email?: string }): string {
  const t = workspaceTranslator(locale);
  return layout({
    title: t('signIn.title'),
    base,
    locale,
    body: html`<section class="card narrow"><h1>${t('signIn.title')}</h1>${error(t, problem)}
<form method="post" action="${base + SIGN_IN_PATH}">
<input type="hidden" name="next" value="${next}">
<label for="email">${t('signIn.email')}</label><input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${email}"${described(problem)}>
<label for="password">${t('signIn.password')}</label><input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256"${described(problem)}>
<button type="submit">${t('signIn.submit')}</button></form></section>`,
  });
}

/** An invited user's first sign-in: choose a new password (Cognito's NEW_PASSWORD_REQUIRED challenge). */
export function newPasswordPage({ base, next, locale, problem }: SignInForm): string {
  const t = workspaceTranslator(locale);
  return layout({
    title: t('signIn.newPassword.title'),
    base,
    locale,
    body: html`<section class="card narrow"><h1>${t('signIn.newPassword.heading')}</h1>
<p>${t('signIn.newPassword.intro')}</p>${error(t, problem)}
<form method="post" action="${base + NEW_PASSWORD_PATH}">
<input type="hidden" name="next" value="${next}">
<label for="password">${t('signIn.newPassword.password')}</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="8" maxlength="256" aria-describedby="password-hint${problem ? ' form-error' : ''}">
<p class="hint" id="password-hint">${t('signIn.newPassword.hint')}</p>
<label for="confirm">${t('signIn.newPassword.confirm')}</label><input id="confirm" name="confirm" type="password" autocomplete="new-password" required minlength="8" maxlength="256">
<button type="submit">${t('signIn.newPassword.submit')}</button></form></section>`,
  });
}

/** The session service's pages (shared/session/ports.ts). */
export const signInPages: SessionPages = { signIn: signInPage, newPassword: newPasswordPage };

/** The sign-in form: needs no identity provider (its function is given no user pool). */
export function showSignIn({
  base,
  query,
  acceptLanguage,
}: {
  base: string;
  query: Record<string, string | undefined>;
  acceptLanguage?: string | undefined;
}): WebAnswer {
  return { status: 200, html: signInPage({ base, next: safeNext(base, query.next), locale: localeOfRequest(acceptLanguage) }) };
}
