import { describe, expect, it } from 'vitest';
import {
  caseDeltas,
  FIRST_CONTACT_BUCKETS,
  firstContactBucket,
  medianMinutes,
  type CaseProgress,
} from '../../shared/results/case-tally.js';
import { casesOf } from '../../shared/results/report.js';
import { recoveryChannel } from '../../shared/recovery/service.js';
import { readSurveyLink, signSurveyLink, type SurveyLink } from '../../shared/surveys/link.js';
import type { TransactionRecord } from '../../shared/transaction-record.js';

const SECRET = 'unit-survey-secret';
const NOW = new Date('2026-11-22T12:00:00Z');

describe('recovery links', () => {
  const link: SurveyLink = { tenantId: 7, transactionId: 99, attemptId: 1, channel: 'email', expiresAt: 1_800_000_000 };

  it('carry their kind: a recovery link reads as one, a survey link as before (no kind), and neither as the other', () => {
    const survey = signSurveyLink(link, SECRET);
    const recovery = signSurveyLink({ ...link, kind: 'recovery' }, SECRET);
    expect(recovery).toMatch(/^[\w-]{44}$/);
    expect(recovery).not.toBe(survey);
    expect(readSurveyLink(recovery, SECRET, NOW)).toEqual({ status: 'valid', link: { ...link, kind: 'recovery' } });
    expect(readSurveyLink(survey, SECRET, NOW)).toEqual({ status: 'valid', link });
    // The kind byte is under the tag: a survey link cannot be turned into a recovery link.
    const bytes = Buffer.from(survey, 'base64url');
    bytes.writeUInt8(2, 0);
    expect(readSurveyLink(bytes.toString('base64url'), SECRET, NOW).status).toBe('unknown');
  });
});

describe('case counts', () => {
  const opened: CaseProgress = {
    journeyId: 1,
    storeId: 3,
    employeeId: 4,
    openedAt: '2026-11-30T23:00:00.000Z',
    dueAt: '2026-12-01T23:00:00.000Z',
    status: 'open',
    firstContactAt: null,
    closedAt: null,
    overdue: false,
  };
  const sum = (deltas: ReturnType<typeof caseDeltas>) =>
    deltas.filter((d) => d.dimension === 'store').reduce<Record<string, number>>((all, d) => ({ ...all, ...d.add }), {});

  it('count a case once per transition, every count on the day it opened (not the day it moved)', () => {
    expect(sum(caseDeltas(undefined, opened))).toEqual({ co: 1 });
    const contacted = { ...opened, status: 'in_progress', firstContactAt: '2026-12-01T00:10:00.000Z' };
    const deltas = caseDeltas(opened, contacted);
    expect(sum(deltas)).toEqual({ fc: 1, ft3: 1 });
    expect(new Set(deltas.map((d) => d.day))).toEqual(new Set(['2026-11-30']));
    expect(deltas.map((d) => d.dimension).sort()).toEqual(['all', 'employee', 'store', 'storeEmployee']);
    // A note on a contacted case moves nothing; resolving it within the deadline counts it resolved and on time.
    expect(caseDeltas(contacted, { ...contacted })).toEqual([]);
    const resolved = { ...contacted, status: 'resolved', closedAt: '2026-12-01T22:59:00.000Z' };
    expect(sum(caseDeltas(contacted, resolved))).toEqual({ rs: 1, rw: 1 });
    // Resolved a minute late: resolved, and its deadline missed.
    expect(sum(caseDeltas(contacted, { ...resolved, closedAt: '2026-12-01T23:01:00.000Z' }))).toEqual({ rs: 1, md: 1 });
    expect(caseDeltas(resolved, { ...resolved })).toEqual([]);
  });

  it('put each wait in its bucket, bounds inclusive, the last one open', () => {
    expect(firstContactBucket(0)).toBe(0);
    expect(firstContactBucket(15)).toBe(0);
    expect(firstContactBucket(15.5)).toBe(1);
    expect(firstContactBucket(10080)).toBe(FIRST_CONTACT_BUCKETS.length - 1);
    expect(firstContactBucket(10081)).toBe(FIRST_CONTACT_BUCKETS.length);
  });

  it('read the median from the buckets, interpolated within the middle one', () => {
    expect(medianMinutes({})).toBeNull();
    // One case contacted after 40 minutes: bucket 30-60, its middle.
    expect(medianMinutes({ ft2: 1 })).toBe(45);
    // Three cases: 10 min, 40 min, 2 days -> the middle one falls in 30-60.
    expect(medianMinutes({ ft0: 1, ft2: 1, ft7: 1 })).toBe(45);
    // Four cases, two under 15 min: the middle is the top of the first bucket.
    expect(medianMinutes({ ft0: 2, ft4: 2 })).toBe(15);
    expect(medianMinutes({ ft10: 3 })).toBe(10080);
  });

  it('make the figures of a row: shares of the cases opened and of the recovery answers', () => {
    // Counters kept before missed deadlines were counted (no `md`): the resolved cases are the decided ones.
    expect(casesOf({ co: 4, fc: 2, ft1: 2, rs: 3, rw: 2, ra: 2, ry: 1 })).toEqual({
      opened: 4,
      first_contact_median_minutes: 23,
      first_contact_median_range: { low: 15, high: 30 },
      resolved: 3,
      resolved_within_deadline: 0.5,
      deadline_decided: 3,
      resolved_in_time: 2,
      on_time_rate: 0.667,
      recovery_answers: 2,
      recovery_rate: 0.5,
    });
  });
});

describe('the recovery channel', () => {
  const record = (survey: Partial<TransactionRecord['transaction']['survey']>, contacts: TransactionRecord['surveyContacts']) =>
    ({
      transaction: { survey: { status: 'sent', reason: null, attempt_id: 1, channel: 'whatsapp', sent_at: NOW.toISOString(), ...survey } },
      surveyContact: survey.channel === 'email' ? contacts.email : contacts.phone,
      surveyContacts: contacts,
    }) as unknown as TransactionRecord;

  it('is the channel that reached the customer, unless no sender carries a link on it', () => {
    expect(recoveryChannel(record({ channel: 'sms' }, { phone: '+5511999990000', email: 'a@example.com' }), ['email'])).toEqual({
      channel: 'sms',
      contact: '+5511999990000',
    });
    // Voice has no link to send: the journey's first channel that reaches the customer.
    expect(recoveryChannel(record({ channel: 'ura' }, { phone: '+5511999990000', email: 'a@example.com' }), ['email', 'sms'])).toEqual({
      channel: 'email',
      contact: 'a@example.com',
    });
    expect(recoveryChannel(record({ channel: 'email' }, { phone: null, email: null }), ['email'])).toBeUndefined();
  });
});
