import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isKioskToken, kioskTokenHash, newKioskToken, readKioskToken } from '../../shared/in-store/kiosk-token.js';
import { messagePage, surveyPage } from '../../shared/surveys/page-html.js';

describe("a kiosk's device token", () => {
  it('names its tenant and kiosk, and is its stored hash only', () => {
    const { token, tenantId, id } = newKioskToken(7);
    expect(token).toMatch(/^[\w-]{38}$/);
    expect(tenantId).toBe(7);
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(readKioskToken(token)).toEqual({ tenantId: 7, id });
    expect(isKioskToken(token, kioskTokenHash(token))).toBe(true);
    // Another token of the same tenant and id (a made-up secret) is not this kiosk's.
    const forged = `${token.slice(0, 20)}${token[20] === 'A' ? 'B' : 'A'}${token.slice(21)}`;
    expect(readKioskToken(forged)).toEqual({ tenantId: 7, id });
    expect(isKioskToken(forged, kioskTokenHash(token))).toBe(false);
    expect(readKioskToken(`${token}A`)).toBeUndefined();
    expect(readKioskToken('x'.repeat(37))).toBeUndefined();
  });
});

describe("a kiosk's pages", () => {
  const view = {
    locale: 'es' as const,
    brand: { name: 'Loja' },
    token: 'k',
    customerFirstName: '',
    question: { field: 'score', legend: 'How likely?', indicator: 'nps' as const, chosen: undefined, optional: false },
    followUps: [],
    classes: [],
    comment: '',
    problems: [],
    entry: { email: '', phone: '' },
  };
  const hashOf = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

  it('has big buttons and its offline script, allowed by its hash and fetching only its own origin', () => {
    const { html, policy } = surveyPage({ ...view, kiosk: true });
    expect(html).toContain('<form method="post" action="k" class="kiosk">');
    expect(html).toContain('<p class="hint" id="kiosk-offline" role="status" hidden>Sin conexión');
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(script).toContain('localStorage');
    expect(policy).toContain(`script-src ${hashOf(script)}; connect-src 'self'`);
    // A QR code's page has neither.
    const qr = surveyPage(view);
    expect(qr.html).not.toContain('<script');
    expect(qr.policy).not.toContain('script-src');
  });

  it('returns from the thanks to its start after 10 seconds, with no script', () => {
    const { html } = messagePage({ locale: 'pt-BR' }, { title: 'Obrigado', text: 'Até logo', refresh: { seconds: 10, url: 'k' } });
    expect(html).toContain('<meta http-equiv="refresh" content="10;url=k">');
    expect(html).not.toContain('<script');
  });
});
