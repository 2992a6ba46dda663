import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { workspacePage, wrapperPage } from '../../shared/http/workspace.js';
import { MAX_FORM_BYTES } from '../../shared/http/page.js';

/** A POST to a workspace page, with no session (before any tenant is known), from `origin`, asking for `language`. */
const post = (origin: string, language: string, body = 'a=1') =>
  ({
    rawPath: '/app/cases/1',
    rawQueryString: '',
    headers: { host: 'api.example', origin, 'accept-language': language },
    body,
    isBase64Encoded: false,
    requestContext: { requestId: 'r1', stage: '$default', http: { method: 'POST', sourceIp: '203.0.113.9' } },
  }) as unknown as APIGatewayProxyEventV2;
const context = { functionName: 'test', awsRequestId: 'r1' } as Context;
const never = async () => {
  throw new Error('the page must not run');
};

describe("the workspace wrapper's own pages", () => {
  it("refuse a post from another site (403) and a form too long (413) in the browser's language before a tenant is known", async () => {
    // Act
    const refused = await workspacePage(never)(post('https://evil.example', 'es-AR,es;q=0.9'), context);
    const long = await workspacePage(never)(post('https://api.example', 'en-US', 'a='.padEnd(MAX_FORM_BYTES + 10, 'x')), context);
    const pt = await workspacePage(never)(post('https://evil.example', 'de'), context);

    // Assess
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('<html lang="es">');
    expect(refused.body).toContain('Envío rechazado');
    expect(long.statusCode).toBe(413);
    expect(long.body).toContain('<html lang="en">');
    expect(long.body).toContain('Form too long');
    expect(pt.body).toContain('Envio recusado');
  });

  it("speak the tenant's language and show its brand once a session names the tenant", () => {
    const look = { locale: 'es' as const, brand: { name: 'Café Aurora' } };
    const page = wrapperPage({ base: '', status: 413, page: 'tooLong', look }).html!;
    expect(page).toContain('<html lang="es">');
    expect(page).toContain('Formulario demasiado largo');
    expect(page).toContain('Café Aurora');
    expect(wrapperPage({ base: '', status: 403, page: 'refused', look: { locale: 'en' } }).html).toContain('Submission refused');
  });
});
