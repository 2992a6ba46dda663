import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as exportConsumer } from '../../functions/queue/answer-exports.js';
import { createGateway } from '../../infra/local/gateway.js';
import { invoke } from '../../infra/local/invoke.js';
import { s3 } from '../../shared/adapters/s3.js';
import { cognitoIdentityProvider, cognitoUserDirectory } from '../../shared/adapters/cognito.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { BUCKETS } from '../../shared/buckets.js';
import { ENV } from '../../shared/config.js';
import type { UserScope } from '../../shared/tenants/config-schema.js';
import { inProcess } from '../support/api.js';
import { sqsEvent, usePrivateQueue } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { DEMO_SETTINGS, newTenant, type TestTenant } from '../support/tenant.js';

/**
 * The workspace export (docs/workspace.md#the-workspace-export): started from the answers page by a signed-in manager,
 * written by its consumer to the local S3-compatible server, read back through the download route; a store-limited
 * manager's holds only their stores; a message delivered twice writes one file and counts its rows once.
 */
usePrivateQueue('surveyDispatch');
const exportQueue = usePrivateQueue('exports');
const api = inProcess('public');
const gateway = createGateway({ api: 'public' });
const PASSWORD = 'Answer-exports-1!';
const SAME_ORIGIN = { origin: 'http://localhost', host: 'localhost' };
const STORE_2_COMMENT = 'Só na loja dois; "caro"';
let tenant: TestTenant;
let full: string;
let limited: string;

async function manager(email: string, scope: UserScope) {
  await tenantService.createUser(tenant.tenantId, { name: email, scope });
  const directory = cognitoUserDirectory(process.env[ENV.userPoolId]!);
  await directory.invite({ email, tenantId: tenant.tenantId, temporaryPassword: 'Temp-exports-1!' });
  await directory.setPassword(email, PASSWORD);
  const outcome = await cognitoIdentityProvider(() => process.env[ENV.userPoolClientId]!).signIn(email, PASSWORD);
  if (outcome.kind !== 'signed-in') throw new Error(`not signed in: ${outcome.kind}`);
  return `sid=${outcome.tokens.idToken}`;
}

const page = async (cookie: string, url: string) => {
  const res = await gateway({ method: 'GET', url, headers: { cookie }, body: Buffer.alloc(0) });
  return { status: res.status, location: res.headers.location, html: res.body.toString() };
};
const startExport = (cookie: string, form: [string, string][] = []) =>
  gateway({
    method: 'POST',
    url: '/app/answers/exports',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...SAME_ORIGIN },
    body: Buffer.from(new URLSearchParams(form).toString()),
  });
const consume = async (messages: unknown[]) =>
  (await invoke('answerExports', exportConsumer, sqsEvent(messages, { queue: 'ExportQueue' }))).batchItemFailures;

/** The file behind a page's download link: through the route (its redirect), then the presigned address. */
async function download(cookie: string, html: string) {
  const link = /<a href="(\/app\/answers\/exports\/[^"]+)">Baixar a planilha<\/a>/.exec(html)?.[1];
  expect(link, html).toBeDefined();
  const res = await page(cookie, link!);
  expect(res.status).toBe(303);
  const file = await fetch(res.location!);
  expect(file.status).toBe(200);
  expect(file.headers.get('content-disposition')).toMatch(
    /^attachment; filename\*=UTF-8''respostas-\d{4}-\d\d-\d\d-a-\d{4}-\d\d-\d\d\.csv$/,
  );
  return { link: link!, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(await file.arrayBuffer()) };
}

/** The rows of a `;`-separated CSV (RFC 4180 quoting), BOM dropped. */
function rowsOf(text: string): string[][] {
  expect(text.startsWith('\uFEFF')).toBe(true);
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 1; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (!quoted && c === ';') {
      row.push(cell);
      cell = '';
    } else if (!quoted && c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

beforeAll(async () => {
  tenant = await newTenant();
  expect((await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: 'Loja Dois' } })).body.id).toBe(2);
  await registerSale(api, tenant.key, { store_id: 1, score: 9, comment: 'Loja um, tudo certo', name: 'Maria Um' });
  await registerSale(api, tenant.key, { store_id: 1, score: 3, comment: '=HYPERLINK("http://evil.example")' });
  await registerSale(api, tenant.key, { store_id: 2, score: 7, comment: STORE_2_COMMENT, name: 'Cliente Dois' });
  full = await manager(`full-${tenant.tenantId}@exports.example`, 'all');
  limited = await manager(`limited-${tenant.tenantId}@exports.example`, { stores: [1], groups: [] });
}, 120_000);

describe('the workspace export', () => {
  it("starts from the answers page, shows its progress, then links a file in the tenant's words with every store's names", async () => {
    // Act: the button, twice while it runs.
    const started = await startExport(full);
    expect(started.status).toBe(303);
    const back = started.headers.location!;
    expect(back).toMatch(/^\/app\/answers\?from=\d{4}-\d\d-\d\d&to=\d{4}-\d\d-\d\d#export$/);
    expect((await page(full, back)).html).toContain('Preparando a planilha: 0 respostas escritas.');
    expect((await startExport(full)).headers.location).toBe(back);
    const messages = await exportQueue.drain();
    expect(messages).toHaveLength(1);

    // The same message delivered twice at once (a redelivery while it runs), and once more after it is done.
    expect(await Promise.all([consume(messages), consume(messages)])).toEqual([[], []]);
    expect(await consume(messages)).toEqual([]);

    // Assess: one file, its rows counted once, in Portuguese, ';' separated, in São Paulo time, with names.
    const done = (await page(full, back)).html;
    expect(done).toContain('Planilha pronta: 3 respostas.');
    const { Contents = [] } = await s3().send(
      new ListObjectsV2Command({ Bucket: process.env[BUCKETS.exports.env], Prefix: `${BUCKETS.exports.prefix}${tenant.tenantId}/` }),
    );
    expect(Contents).toHaveLength(1);
    const { text } = await download(full, done);
    const [header, ...rows] = rowsOf(text);
    expect(header!.slice(0, 12)).toEqual([
      'Respondida em (America/Sao_Paulo)',
      'Jornada',
      'Código da loja',
      'Loja',
      'Código do funcionário',
      'Funcionário',
      'Código do cliente',
      'Cliente',
      'Canal',
      'Nota',
      'Faixa',
      'Comentário',
    ]);
    expect(rows).toHaveLength(3);
    const byComment = new Map(rows.map((row) => [row[11], row]));
    expect(byComment.get(STORE_2_COMMENT)!.slice(2, 4)).toEqual(['2', 'Loja Dois']);
    expect(byComment.get(STORE_2_COMMENT)![10]).toBe('Neutro');
    const first = byComment.get('Loja um, tudo certo')!;
    expect(first.slice(2, 8)).toEqual([
      '1',
      DEMO_SETTINGS.firstStore!.store,
      '1',
      DEMO_SETTINGS.firstStore!.employee,
      first[6],
      'Maria Um',
    ]);
    expect(first[0]).toMatch(/^\d\d\/\d\d\/\d{4}, \d\d:\d\d:\d\d$/);
    expect(byComment.get(`'=HYPERLINK("http://evil.example")`)![10]).toBe('Detrator');
  });

  it("gives a store-limited manager their stores only, and nobody else's link", async () => {
    // Prepare: the full manager's finished export, which the page of the same filters (the default period) shows.
    const fullPage = (await page(full, '/app/answers')).html;
    // Act
    const started = await startExport(limited);
    expect(started.status).toBe(303);
    const messages = await exportQueue.drain();
    expect(messages).toHaveLength(1);
    expect(await consume(messages)).toEqual([]);
    // Assess
    const { text } = await download(limited, (await page(limited, started.headers.location!)).html);
    const rows = rowsOf(text).slice(1);
    expect(rows.map((row) => row[2])).toEqual(['1', '1']);
    expect(text).not.toContain('Loja Dois');
    expect(text).not.toContain('Cliente Dois');
    const fullLink = /href="(\/app\/answers\/exports\/[^"]+)"/.exec(fullPage)![1]!;
    const refused = await page(limited, fullLink);
    expect(refused.status).toBe(404);
    expect(refused.html).toContain('Esta exportação não está mais disponível');
  });

  it('refuses a store outside the manager’s scope, naming it, and starts nothing', async () => {
    const refused = await startExport(limited, [['store', '2']]);
    expect(refused.status).toBe(400);
    expect(refused.body.toString()).toContain('Loja não encontrada entre as suas.');
    expect(await exportQueue.drain()).toEqual([]);
  });
});
