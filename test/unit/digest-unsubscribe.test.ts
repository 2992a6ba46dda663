import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../shared/access/ports.js';
import {
  digestUnsubscribe,
  digestUnsubscribeToken,
  showDigestUnsubscribe,
  type DigestUnsubscribePorts,
} from '../../shared/digest/unsubscribe.js';
import type { Settings } from '../../shared/tenants/config-schema.js';

const SECRET = 'a-survey-secret-of-the-deployment';
const ANA = 'ana@loja.example';
const user = (name: string): UserRecord => ({ name, scope: 'all', tokenHash: `h-${name}`, created_at: '2026-01-01T00:00:00Z' });

/** Tenant 7's users in memory: the choice each has of digest, as the users API would answer it. */
function tenant() {
  const users = [user('bia@loja.example'), user(ANA)];
  const ports: DigestUnsubscribePorts = {
    users: async (tenantId) => (tenantId === 7 ? users : []),
    settings: async () => ({ locale: 'es', brand: { name: 'Ferretería Sol', colour: '#a21caf' }, delivery: {} }) as unknown as Settings,
    stop: async (_tenantId, stopped) => {
      const at = users.findIndex((u) => u.name === stopped.name);
      users[at] = { ...users[at]!, digest: 'off' };
    },
  };
  return { ports, digestOf: (name: string) => users.find((u) => u.name === name)?.digest };
}

describe('the digest unsubscribe link', () => {
  it('names no one: no address nor any part of it, only 28 URL-safe characters', () => {
    const token = digestUnsubscribeToken(7, ANA, SECRET);
    expect(token).toMatch(/^[\w-]{28}$/);
    expect(token).not.toContain('ana');
    expect(Buffer.from(token, 'base64url').toString('latin1')).not.toContain('ana');
    expect(digestUnsubscribeToken(7, 'bia@loja.example', SECRET)).not.toBe(token);
  });

  it('asks to confirm on GET, in the tenant language and brand, and changes nothing', async () => {
    const { ports, digestOf } = tenant();
    const page = await showDigestUnsubscribe(ports, { token: digestUnsubscribeToken(7, ANA, SECRET), secret: SECRET, locale: 'en' });
    expect(page.status).toBe(200);
    expect(page.html).toContain('<html lang="es">');
    expect(page.html).toContain('Ferretería Sol');
    expect(page.html).toContain('<form method="post" action="unsubscribe">');
    expect(page.html).toContain('name="List-Unsubscribe" value="One-Click"');
    expect(digestOf(ANA)).toBeUndefined();
  });

  it("sets the link's user's digest to off on POST, and no one else's", async () => {
    const { ports, digestOf } = tenant();
    const page = await digestUnsubscribe(ports, { token: digestUnsubscribeToken(7, ANA, SECRET), secret: SECRET, locale: 'en' });
    expect(page.status).toBe(200);
    expect(page.html).toContain('Ya no recibirá los resúmenes de Ferretería Sol.');
    expect(digestOf(ANA)).toBe('off');
    expect(digestOf('bia@loja.example')).toBeUndefined();
  });

  it('answers 404 to a link altered, signed by another secret or moved to another tenant, and stops nothing', async () => {
    const { ports, digestOf } = tenant();
    const token = digestUnsubscribeToken(7, ANA, SECRET);
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const moved = Buffer.from(token, 'base64url');
    moved.writeUInt32BE(8, 1);
    for (const bad of [altered, digestUnsubscribeToken(7, ANA, 'another-secret-entirely'), moved.toString('base64url'), 'x', '']) {
      const page = await digestUnsubscribe(ports, { token: bad, secret: SECRET, locale: 'en' });
      expect(page.status, bad).toBe(404);
      expect(page.html).toContain('Link not valid');
    }
    expect(digestOf(ANA)).toBeUndefined();
  });
});
