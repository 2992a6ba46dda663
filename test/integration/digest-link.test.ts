import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createGateway } from '../../infra/local/gateway.js';
import { cognitoIdentityProvider, cognitoUserDirectory } from '../../shared/adapters/cognito.js';
import { digestSending } from '../../shared/adapters/wiring/digest.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { ENV } from '../../shared/config.js';
import { addDays } from '../../shared/dates.js';
import { weekOf } from '../../shared/results/groupings.js';
import { inProcess } from '../support/api.js';
import { mailTo } from '../support/mailbox.js';
import { regionalTenant } from '../support/regional-digest.js';
import type { TestTenant } from '../support/tenant.js';

/**
 * The digest e-mail's link opens the digest of the e-mail's own period, whenever it is clicked (issue 58's newcomer
 * clicked a week's digest the week after and read another week): a week's digest sent late (as a retry would, two
 * weeks on), its link followed through the local gateway with a signed-in manager's session (Cognito emulator).
 */
const api = inProcess('public');
const gateway = createGateway({ api: 'public' });
const sesUrl = inject('sesUrl');
const PASSWORD = 'Digest-link-pass-1!';
let tenant: TestTenant;
let today: string;
let manager: string;
let cookie: string;

beforeAll(async () => {
  ({ tenant, today } = await regionalTenant(api));
  manager = `digest-link-${tenant.tenantId}@test.local`;
  await tenantService.createUser(tenant.tenantId, { name: manager, scope: 'all' });
  const directory = cognitoUserDirectory(process.env[ENV.userPoolId]!);
  await directory.invite({ email: manager, tenantId: tenant.tenantId, temporaryPassword: 'Temp-digest-link-1!' });
  await directory.setPassword(manager, PASSWORD);
  const outcome = await cognitoIdentityProvider(() => process.env[ENV.userPoolClientId]!).signIn(manager, PASSWORD);
  if (outcome.kind !== 'signed-in') throw new Error(`not signed in: ${outcome.kind}`);
  cookie = `sid=${outcome.tokens.idToken}`;
}, 60_000);

describe("the digest e-mail's link", () => {
  it("opens the digest of the e-mail's own week, not of the week it is clicked in", async () => {
    // The week two weeks ago (its 2 answers at the first store), sent now.
    const week = weekOf(addDays(today, -14));
    expect(await digestSending.handle({ version: 1, tenantId: tenant.tenantId, period: 'week', from: week, user: manager })).toBe('sent');
    const mail = await mailTo(sesUrl, manager);
    const link = new URL(/https?:\/\/\S+\/app\/digest\?[^\s)]+/.exec(mail.body.text)![0]);
    const intro = mail.body.text.split('\n').find((line) => line.startsWith('Suas lojas de'))!;
    expect(intro).toBeDefined();

    const page = await gateway({ method: 'GET', url: link.pathname + link.search, headers: { cookie }, body: Buffer.alloc(0) });

    expect(page.status, page.body.toString()).toBe(200);
    const html = page.body.toString();
    // The same days, and the same figures: the week's 2 answers at the first store.
    expect(html).toContain(intro);
    // Titled as the e-mail is: its own week, not a range of days.
    expect(mail.subject).toMatch(/^Resumo semanal: /);
    expect(html).toContain('<h1>Resumo semanal: ');
    expect(mail.body.text).toContain('Respostas: 2');
    expect(html).toContain('Respostas: 2');
    expect(link.searchParams.get('from')).toBe(week);
    expect(link.searchParams.get('to')).toBe(addDays(week, 6));
  }, 60_000);
});
