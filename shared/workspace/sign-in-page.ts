import { escapeHtml } from '../surveys/compose.js';
import { NEW_PASSWORD_PATH, SIGN_IN_PATH } from '../session/paths.js';
import { layout } from './layout.js';

const error = (message: string | undefined) => (message ? `<p class="error" role="alert" id="form-error">${escapeHtml(message)}</p>` : '');
const described = (message: string | undefined) => (message ? ' aria-describedby="form-error"' : '');

/** The sign-in form: e-mail and password, posted to the service (never to Cognito from the page). */
export function signInPage(base: string, next: string, message?: string, email = ''): string {
  return layout({
    title: 'Entrar',
    base,
    body: `<section class="card narrow"><h1>Entrar</h1>${error(message)}
<form method="post" action="${escapeHtml(base + SIGN_IN_PATH)}">
<input type="hidden" name="next" value="${escapeHtml(next)}">
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${escapeHtml(email)}"${described(message)}>
<label for="password">Senha</label><input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256"${described(message)}>
<button type="submit">Entrar</button></form></section>`,
  });
}

/** An invited user's first sign-in: choose a new password (Cognito's NEW_PASSWORD_REQUIRED challenge). */
export function newPasswordPage(base: string, next: string, message?: string): string {
  return layout({
    title: 'Nova senha',
    base,
    body: `<section class="card narrow"><h1>Escolha sua senha</h1>
<p>É seu primeiro acesso: troque a senha temporária do convite por uma sua.</p>${error(message)}
<form method="post" action="${escapeHtml(base + NEW_PASSWORD_PATH)}">
<input type="hidden" name="next" value="${escapeHtml(next)}">
<label for="password">Nova senha</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="8" maxlength="256" aria-describedby="password-hint${message ? ' form-error' : ''}">
<p class="hint" id="password-hint">Ao menos 8 caracteres, com maiúscula, minúscula, número e símbolo.</p>
<label for="confirm">Repita a senha</label><input id="confirm" name="confirm" type="password" autocomplete="new-password" required minlength="8" maxlength="256">
<button type="submit">Salvar e entrar</button></form></section>`,
  });
}
