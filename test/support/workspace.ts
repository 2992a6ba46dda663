import type { UserRole } from '../../shared/access/ports.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { cognitoUserDirectory } from '../../shared/adapters/cognito.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { ENV } from '../../shared/config.js';
import { inviteManager } from '../../shared/session/managers.js';
import type { UserScope } from '../../shared/tenants/config-schema.js';
import { isChecker } from './browser.js';

/**
 * What the workspace's browser tests share (with browser.ts: chromium and axe-core): a manager invited as the admin command
 * invites one, the sign-in form, and a browser context that records what should never happen (a script or policy
 * error, a request leaving the service).
 */

/**
 * Invites a manager of `tenantId` with `scope` (the tenant user and its Cognito user) and, with `password`, sets it as
 * their own (without, they still hold the temporary one). Answers the invitation and the tenant user's user token.
 */
export async function inviteManagerOf(
  tenantId: number,
  email: string,
  scope: UserScope,
  { temporary = 'Temp-workspace-1!', password, role }: { temporary?: string; password?: string; role?: UserRole } = {},
) {
  const directory = cognitoUserDirectory(process.env[ENV.userPoolId]!);
  let token = '';
  const invited = await inviteManager(
    {
      putTenantUser: async (id, name, given) => void (token = (await tenantService.createUser(id, { name, scope: given, role })).token),
      directory,
    },
    { tenantId, email, scope, temporaryPassword: temporary },
  );
  if (password) await directory.setPassword(email, password);
  return { invited, token };
}

export async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Senha', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
}

/**
 * A context that records console errors and any request leaving the service (`publicUrl`). A page answered with one of
 * `expectedStatuses` (a form refused: the page the test asked for) is no problem; script and policy errors are.
 */
export async function watched(
  browser: Browser,
  publicUrl: string,
  options: Parameters<Browser['newContext']>[0] = {},
  expectedStatuses: readonly number[] = [400, 401],
): Promise<{ context: BrowserContext; problems: string[] }> {
  // The sign-in pages follow the browser's language: pt-BR, as the tests' words, unless a test says otherwise.
  const context = await browser.newContext({ locale: 'pt-BR', ...options });
  const problems: string[] = [];
  const expected = new RegExp(`^Failed to load resource: the server responded with a status of (${expectedStatuses.join('|')})\\b`);
  context.on('console', (message) => {
    if (message.type() === 'error' && !expected.test(message.text())) problems.push(`${message.text()} (${message.location().url})`);
  });
  context.on('request', (request) => {
    if (!request.url().startsWith(publicUrl) && !isChecker(request.url())) problems.push(`elsewhere: ${request.url()}`);
  });
  return { context, problems };
}
