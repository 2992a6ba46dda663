import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { DEMO_TENANTS_FILE } from '../../infra/local/demo.js';
import { ENV } from '../../shared/config.js';
import { ValidationError } from '../../shared/errors.js';
import { KIOSK_ANSWER_LIMIT, secondsToNextDay } from '../../shared/in-store/kiosk.js';
import type { AnswerWindow, EntryAnswer, EntryPlace, QrPorts } from '../../shared/in-store/ports.js';
import { QR_ANSWER_LIMIT, submitQrPage } from '../../shared/in-store/qr-page.js';
import { signQrCode } from '../../shared/in-store/qr-token.js';
import type { Settings } from '../../shared/tenants/config-schema.js';
import { parseTenantFile } from '../../shared/tenants/tenant-file.js';

/**
 * A QR code's answer over in-memory ports (issue 58): what its per-address bound counts of an IPv6 address, the
 * Retry-After of its 429, and the page (not a 500) when the transaction rules refuse the answer.
 */
// The demo tenants' file is a local deployment's (its chatbot is on http).
vi.stubEnv(ENV.localDeployment, '1');
const SECRET = 'unit-secret';
const SETTINGS = parseTenantFile(readFileSync(DEMO_TENANTS_FILE, 'utf8'), {}).tenants[0]! as unknown as Settings;
const token = signQrCode({ tenantId: 7, storeId: 1, journeyId: 1, generation: 1 }, SECRET);
const FORM = () => new URLSearchParams('score=9');

/** Ports that count every window's answers and record what they are given (or refuse it, as the rules would). */
function ports(options: { limit?: number; refuse?: boolean; place?: EntryPlace } = {}) {
  const windows = new Map<string, number>();
  const recorded: EntryAnswer[] = [];
  const qr: QrPorts = {
    settings: () => Promise.resolve(SETTINGS),
    brand: () => Promise.resolve({ name: 'Loja' }),
    place: () => Promise.resolve(options.place ?? { store: { status: 'active' }, employee: undefined }),
    limits: {
      countAnswer: (window: AnswerWindow, limit: number) => {
        const key = `${window.tokenHash}/${window.addressHash}/${window.window}`;
        const counted = windows.get(key) ?? 0;
        if (counted >= Math.min(limit, options.limit ?? limit)) return Promise.resolve(false);
        windows.set(key, counted + 1);
        return Promise.resolve(true);
      },
    },
    record: (_tenantId, answer) => {
      if (options.refuse) return Promise.reject(new ValidationError('Rejected.', [{ path: 'store', message: 'store 1 is inactive' }]));
      recorded.push(answer);
      return Promise.resolve();
    },
  };
  return { qr, windows, recorded };
}

const submit = (qr: QrPorts, address: string, now = new Date()) =>
  submitQrPage({ token, posted: FORM(), ports: qr, secret: SECRET, languages: 'pt-BR', request: { cookies: [], address }, now });

describe("a QR code's per-address bound", () => {
  it('counts an IPv6 address by its /64: one subscriber, whatever address each device picks in it', async () => {
    const { qr, windows } = ports({ limit: 1 });
    expect((await submit(qr, '2001:db8:1:2:aaaa::1')).status).toBe(303);
    // Another address of the same /64: the same count, now full.
    expect((await submit(qr, '2001:db8:1:2:ffff:ffff:ffff:fffe')).status).toBe(429);
    expect((await submit(qr, '2001:0db8:0001:0002::9')).status).toBe(429);
    // Another /64, an IPv4 address, and the same IPv4 address written as IPv4-mapped IPv6.
    expect((await submit(qr, '2001:db8:1:3::1')).status).toBe(303);
    expect((await submit(qr, '203.0.113.9')).status).toBe(303);
    expect((await submit(qr, '::ffff:203.0.113.9')).status).toBe(429);
    expect((await submit(qr, '203.0.113.10')).status).toBe(303);
    expect(windows.size).toBe(4);
  });

  it('says in Retry-After how many seconds are left of its window', async () => {
    const { qr } = ports({ limit: 0 });
    const window = QR_ANSWER_LIMIT.windowSeconds * 1000;
    const now = new Date(Math.floor(Date.now() / window) * window + window - 90_500);
    const refused = await submit(qr, '203.0.113.9', now);
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe(91);
  });
});

describe("a kiosk's daily cap", () => {
  it('says in Retry-After the seconds to the next midnight in the tenant’s zone', () => {
    // 21:00 UTC is 18:00 in São Paulo (UTC-3): 6 hours to its midnight.
    expect(secondsToNextDay(new Date('2026-03-10T21:00:00Z'), 'America/Sao_Paulo')).toBe(6 * 3600);
    expect(secondsToNextDay(new Date('2026-03-10T02:59:59Z'), 'America/Sao_Paulo')).toBe(1);
    expect(KIOSK_ANSWER_LIMIT.windowSeconds).toBeGreaterThan(0);
  });
});

describe("a QR code's answer refused by the transaction rules", () => {
  it('is a page saying the code is no longer in use (410), not a 500, and records nothing', async () => {
    const { qr, recorded } = ports({ refuse: true });
    const page = await submit(qr, '203.0.113.9');
    expect(page.status).toBe(410);
    expect(page.html).toContain('Este QR code não está mais em uso.');
    expect(recorded).toEqual([]);
  });

  it('is told before anything is counted when its store is inactive', async () => {
    const { qr, windows } = ports({ place: { store: { status: 'inactive' }, employee: undefined } });
    expect((await submit(qr, '203.0.113.9')).status).toBe(410);
    expect(windows.size).toBe(0);
  });
});
