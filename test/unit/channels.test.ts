import { describe, expect, it } from 'vitest';
import {
  addressFor,
  CHANNEL_RECORDS,
  CHANNELS,
  HAND_OFF_CHANNELS,
  heldByQuietHours,
  RATING_SOURCES,
  type Channel,
} from '../../shared/channels.js';
import { readSurveyLink, signSurveyLink } from '../../shared/surveys/link.js';

const SECRET = 'unit-survey-secret';
const NOW = new Date('2026-11-22T12:00:00Z');

/**
 * Tokens signed by `link.ts` before the channel records existed, when a link carried the channel's position in
 * CHANNELS. Links already in customers' hands must keep naming the same channel.
 */
const ISSUED: Record<Channel, string> = {
  whatsapp: 'AQAAAAcAAAdbzRUCAGtJ0gAuTi6kdqVEvXiNFkeECjee',
  sms: 'AQAAAAcAAAdbzRUCAWtJ0gDaaA-BenDuBAOZqD3Wdg4L',
  email: 'AQAAAAcAAAdbzRUCAmtJ0gAS7gvP629u98vWSWe3tzC2',
  ura: 'AQAAAAcAAAdbzRUCA2tJ0gDgzez4OxydsdN9TpoNKuS4',
};
const ISSUED_LINK = { tenantId: 7, transactionId: 123456789, attemptId: 2, expiresAt: 1_800_000_000 };

describe('channel records', () => {
  it('pin each link code: a code is never changed or reused, whatever the order of the list', () => {
    expect(Object.fromEntries(CHANNELS.map((c) => [c, CHANNEL_RECORDS[c].linkCode]))).toEqual({ whatsapp: 0, sms: 1, email: 2, ura: 3 });
  });

  it('decode the links issued before the records with the same channel, and sign them again byte for byte', () => {
    for (const channel of CHANNELS) {
      expect(readSurveyLink(ISSUED[channel], SECRET, NOW)).toEqual({ status: 'valid', link: { ...ISSUED_LINK, channel } });
      expect(signSurveyLink({ ...ISSUED_LINK, channel }, SECRET)).toBe(ISSUED[channel]);
    }
  });

  it('give each channel its own rating source, the reference codes kept, no other source sharing one', () => {
    expect(Object.fromEntries(CHANNELS.map((c) => [c, RATING_SOURCES[c]]))).toEqual({ whatsapp: 7, sms: 2, email: 1, ura: 4 });
    const codes = Object.values(RATING_SOURCES);
    expect(new Set(codes).size).toBe(codes.length);
    // Listed in code order, as error messages and the reference API list them.
    expect(Object.keys(RATING_SOURCES).slice(0, 7)).toEqual(['email', 'sms', 'push', 'ura', 'facebook', 'tablet', 'whatsapp']);
  });

  it('reach e-mail at the e-mail address and every other channel at the phone', () => {
    const contacts = { phone: '+5511999990000', email: 'ana@example.com' };
    expect(Object.fromEntries(CHANNELS.map((c) => [c, addressFor(c, contacts)]))).toEqual({
      whatsapp: contacts.phone,
      sms: contacts.phone,
      email: contacts.email,
      ura: contacts.phone,
    });
    expect(addressFor('email', { phone: contacts.phone, email: null })).toBeNull();
  });

  it('hold every channel but e-mail in quiet hours, and let whatsapp and ura be handed off', () => {
    expect(CHANNELS.filter(heldByQuietHours).sort()).toEqual(['sms', 'ura', 'whatsapp']);
    expect([...HAND_OFF_CHANNELS].sort()).toEqual(['ura', 'whatsapp']);
  });
});
