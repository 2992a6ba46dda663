import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { monthsBetween } from '../../shared/adapters/evaluation-repository.js';
import { phone } from '../../shared/customers/phone.js';
import { cpf } from '../../shared/customers/fields.js';
import { isCalendarDate } from '../../shared/dates.js';
import { externalCode, isBirthDate, isDateTime, storableNumber } from '../../shared/schema.js';
import { chooseChannel } from '../../shared/surveys/dispatch.js';
import { INDICATORS, isSupported } from '../../shared/settings/scales.js';
import { publicRequestId, requestKeyFor, requestKeyOf, transactionIdFor } from '../../shared/transactions/request-key.js';

/** Pure rules, in milliseconds: no table, no queue, no Java. */

describe('dates', () => {
  it('takes days that exist within 1900-2100, and nothing else', () => {
    expect(['2026-02-28', '2024-02-29', '1900-01-01', '2100-12-31'].every((d) => isCalendarDate(d))).toBe(true);
    expect(
      ['2026-02-30', '2023-02-29', '1899-12-31', '2101-01-01', '9999-12-01', '+275760-09-13', '2026-1-1'].some((d) => isCalendarDate(d)),
    ).toBe(false);
  });

  it('takes ISO 8601 date-times with a zone, whose day exists', () => {
    for (const ok of ['2026-11-20', '2026-11-20T10:00Z', '2026-11-20T10:00:00.123Z', '2026-11-20T10:00:00-03:00'])
      expect(isDateTime(ok), ok).toBe(true);
    for (const bad of ['2026-02-30T10:00:00Z', '1', 'March 7', '2026-11-20 10:00', '2026-11-20T25:00:00Z', '2026-11-20T10:00:00'])
      expect(isDateTime(bad), bad).toBe(false);
  });

  it('refuses a birth date in the future', () => {
    const today = new Date('2026-11-22T12:00:00Z');
    expect(isBirthDate('2026-11-22', today)).toBe(true);
    expect(isBirthDate('2026-11-23', today)).toBe(false);
  });

  it('counts months across years on numbers, and refuses more than 4', () => {
    expect(monthsBetween('2026-11-15', '2027-02-01')).toEqual(['2026-11', '2026-12', '2027-01', '2027-02']);
    expect(monthsBetween('2099-12-01', '2099-12-31')).toEqual(['2099-12']);
    expect(() => monthsBetween('2026-01-01', '2026-05-01')).toThrow('too long');
    expect(() => monthsBetween('2026-05-01', '2026-01-01')).toThrow('too long');
  });
});

describe('values', () => {
  it('stores numbers DynamoDB keeps exactly', () => {
    for (const ok of [0, -0, 1, -1.5, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e-130])
      expect(v.is(storableNumber, ok), String(ok)).toBe(true);
    for (const bad of [2 ** 53, 1e200, 1e-131, -1e-131, Infinity, NaN]) expect(v.is(storableNumber, bad), String(bad)).toBe(false);
  });

  it('normalises external codes to NFC and refuses invisible characters', () => {
    expect(v.parse(externalCode, ' CAFE\u0301 ')).toBe('CAF\u00c9');
    for (const bad of ['A\u200bB', 'A\u202eB', 'A\ud800B', 'A\u0000B', 'A\u2028B', '   ', 7])
      expect(v.is(externalCode, bad), JSON.stringify(bad)).toBe(false);
  });

  it('stores phones as E.164 with +55 assumed, and cpfs as 11 digits', () => {
    expect(v.parse(phone, '(11) 98765-4321')).toBe('+5511987654321');
    expect(v.parse(phone, '+1 415 555 2671')).toBe('+14155552671');
    expect(v.is(phone, '123')).toBe(false);
    expect(v.parse(cpf, '123.456.789-09')).toBe('12345678909');
    expect(v.is(cpf, '1234567890')).toBe(false);
  });
});

describe('indicators and channels', () => {
  it('supports the integers of each scale only', () => {
    expect(INDICATORS.nps).toEqual({ min: 0, max: 10 });
    expect([0, 10].every((s) => isSupported('nps', s))).toBe(true);
    expect([-1, 11, 9.5].some((s) => isSupported('nps', s))).toBe(false);
    expect(isSupported('binary', 1) && !isSupported('binary', 2)).toBe(true);
    expect(isSupported('ces', 7) && !isSupported('ces', 0)).toBe(true);
  });

  it('picks the first channel of the journey the customer can be reached on', () => {
    expect(chooseChannel(['whatsapp', 'email'], { phone: '+5511999999999', email: 'a@b.c' })).toEqual({
      channel: 'whatsapp',
      contact: '+5511999999999',
    });
    expect(chooseChannel(['whatsapp', 'email'], { phone: null, email: 'a@b.c' })).toEqual({ channel: 'email', contact: 'a@b.c' });
    expect(chooseChannel(['sms'], { phone: null, email: 'a@b.c' })).toBeUndefined();
  });
});

describe('request ids', () => {
  it('derives one key from a journey and external id, and a fresh one without', () => {
    const key = requestKeyFor({ externalId: 'T-1', journey: { slug: 'loja' } });
    expect(requestKeyFor({ externalId: 'T-1', journey: { slug: 'loja' } })).toBe(key);
    expect(requestKeyFor({ externalId: 'T-1', journey: { slug: 'outra' } })).not.toBe(key);
    expect(requestKeyFor({ externalId: undefined, journey: { slug: 'loja' } })).not.toBe(
      requestKeyFor({ externalId: undefined, journey: { slug: 'loja' } }),
    );
    expect(transactionIdFor(key)).toBeLessThan(2 ** 48);
  });

  it('reads back only the ids it issued to the same tenant with the same secret', () => {
    const key = requestKeyFor({ externalId: 'T-1', journey: { slug: 'loja' } });
    const id = publicRequestId(7, key, 'secret');
    expect(requestKeyOf(7, id, 'secret')).toBe(key);
    expect(requestKeyOf(8, id, 'secret')).toBeUndefined();
    expect(requestKeyOf(7, id, 'another')).toBeUndefined();
    expect(requestKeyOf(7, key, 'secret')).toBeUndefined();
    expect(requestKeyOf(7, `${key}.${'A'.repeat(22)}`, 'secret')).toBeUndefined();
  });
});
