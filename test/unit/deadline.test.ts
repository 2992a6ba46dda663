import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseDueAt, type WorkingHours } from '../../shared/cases/deadline.js';
import { DAYS as WEEKDAYS } from '../../shared/settings/scales.js';

/** A case's deadline in business hours: examples a manager would check by hand, then properties over any input. */

const at = (iso: string) => new Date(iso);
const MON_FRI = ['mon', 'tue', 'wed', 'thu', 'fri'] as const;
const LONG_DAYS: WorkingHours = { timeZone: 'America/Sao_Paulo', days: MON_FRI, from: '08:00', to: '20:00' };
const OFFICE: WorkingHours = { timeZone: 'America/Sao_Paulo', days: MON_FRI, from: '09:00', to: '18:00' };

/** Whether the zone's offset changes within a day either side of an instant. */
function clocksChangeAround(instant: Date, timeZone: string): boolean {
  const offset = (ms: number) => {
    const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(new Date(ms));
    return name.find((p) => p.type === 'timeZoneName')!.value;
  };
  return offset(instant.getTime() - 86_400_000) !== offset(instant.getTime() + 86_400_000);
}

/** The local weekday and minutes past midnight of an instant in a zone, read by Intl on its own. */
function local(instant: Date, timeZone: string): { weekday: (typeof WEEKDAYS)[number]; minutes: number } {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: 'numeric', minute: 'numeric', hourCycle: 'h23' })
    .formatToParts(instant)
    .reduce<Record<string, string>>((all, p) => ({ ...all, [p.type]: p.value }), {});
  const weekday = WEEKDAYS[['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.weekday!)]!;
  return { weekday, minutes: Number(parts.hour) * 60 + Number(parts.minute) };
}

describe('a case deadline in business hours', () => {
  it('lands on Tuesday for 24 business hours from Friday evening (08:00-20:00 Monday to Friday)', () => {
    // Friday 2026-11-20 21:00 in São Paulo (UTC-3): Monday's 12 hours, then Tuesday's 12.
    expect(caseDueAt(at('2026-11-21T00:00:00Z'), 24, LONG_DAYS)).toEqual(at('2026-11-24T23:00:00Z')); // Tue 20:00
    // With 09:00-18:00 (9 hours a day): Monday 9, Tuesday 9, then 6 on Wednesday.
    expect(caseDueAt(at('2026-11-21T00:00:00Z'), 24, OFFICE)).toEqual(at('2026-11-25T18:00:00Z')); // Wed 15:00
  });

  it('counts from the moment a case opens inside working hours, and from the next opening outside them', () => {
    // Monday 10:30 local + 2 hours = 12:30 the same day.
    expect(caseDueAt(at('2026-11-23T13:30:00Z'), 2, OFFICE)).toEqual(at('2026-11-23T15:30:00Z'));
    // Monday 17:00 + 3 hours: 1 hour on Monday, 2 on Tuesday from 09:00.
    expect(caseDueAt(at('2026-11-23T20:00:00Z'), 3, OFFICE)).toEqual(at('2026-11-24T14:00:00Z'));
    // Saturday noon: nothing counts until Monday 09:00.
    expect(caseDueAt(at('2026-11-21T15:00:00Z'), 1, OFFICE)).toEqual(at('2026-11-23T13:00:00Z'));
  });

  it('follows the zone across a change of its clocks (Lisbon, spring forward on Sunday 29 March 2026)', () => {
    const lisbon: WorkingHours = { timeZone: 'Europe/Lisbon', days: MON_FRI, from: '09:00', to: '18:00' };
    // Friday 17:00 WET (UTC+0) + 2 hours: 1 on Friday, 1 on Monday from 09:00 WEST (UTC+1) = 10:00 WEST = 09:00 UTC.
    expect(caseDueAt(at('2026-03-27T17:00:00Z'), 2, lisbon)).toEqual(at('2026-03-30T09:00:00Z'));
    // Back in autumn (Sunday 25 October): Friday 17:00 WEST + 2 hours = Monday 10:00 WET = 10:00 UTC.
    expect(caseDueAt(at('2026-10-23T16:00:00Z'), 2, lisbon)).toEqual(at('2026-10-26T10:00:00Z'));
  });

  it('runs a night shift into the next morning, counted on the day it starts', () => {
    const nights: WorkingHours = { timeZone: 'UTC', days: MON_FRI, from: '22:00', to: '06:00' };
    // Monday 23:00: 7 hours to Tuesday 06:00, then 3 from Tuesday 22:00.
    expect(caseDueAt(at('2026-11-23T23:00:00Z'), 10, nights)).toEqual(at('2026-11-25T01:00:00Z'));
    // Friday's shift runs into Saturday; the next one starts on Monday night.
    expect(caseDueAt(at('2026-11-28T05:00:00Z'), 2, nights)).toEqual(at('2026-11-30T23:00:00Z'));
    // Opened at 03:00 on Tuesday, inside Monday's shift.
    expect(caseDueAt(at('2026-11-24T03:00:00Z'), 4, nights)).toEqual(at('2026-11-24T23:00:00Z'));
  });

  it('counts real hours on the night the clocks jump: a round-the-clock tenant is due exactly so many hours later', () => {
    const always: WorkingHours = { timeZone: 'America/New_York', days: WEEKDAYS, from: '00:00', to: '24:00' };
    // 8 March 2026, 02:00 EST -> 03:00 EDT: the day has 23 hours, and 24 business hours are 24 real ones.
    expect(caseDueAt(at('2026-03-08T05:00:00Z'), 24, always)).toEqual(at('2026-03-09T05:00:00Z'));
    // A window that the jump shortens (01:00-04:00 local holds 2 real hours that night).
    const night: WorkingHours = { timeZone: 'America/New_York', days: ['sun'], from: '01:00', to: '04:00' };
    expect(caseDueAt(at('2026-03-08T05:00:00Z'), 2, night)).toEqual(at('2026-03-08T08:00:00Z')); // 04:00 EDT
    expect(caseDueAt(at('2026-03-08T05:00:00Z'), 3, night)).toEqual(at('2026-03-15T06:00:00Z')); // next Sunday 02:00 EDT
  });
});

const ZONES = ['America/Sao_Paulo', 'America/New_York', 'Europe/Lisbon', 'Australia/Lord_Howe', 'Asia/Kolkata', 'UTC'];
const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
const workingHours: fc.Arbitrary<WorkingHours> = fc
  .record({
    timeZone: fc.constantFrom(...ZONES),
    days: fc.uniqueArray(fc.constantFrom(...WEEKDAYS), { minLength: 1, maxLength: 7 }),
    from: fc.integer({ min: 0, max: 1425 }),
    length: fc.integer({ min: 60, max: 1440 }),
  })
  .map(({ timeZone, days, from, length }) => ({
    timeZone,
    days,
    from: hhmm(from),
    to: hhmm(Math.min(1440, from + length)),
  }));
// Instants within a few years, on the second (DST changes of every zone above fall inside).
const instant = fc
  .integer({ min: Date.parse('2025-01-01T00:00:00Z') / 1000, max: Date.parse('2028-12-31T00:00:00Z') / 1000 })
  .map((s) => new Date(s * 1000));
const hours = fc.integer({ min: 1, max: 120 });

describe('case deadline properties', () => {
  it('is later for more hours and for a later opening (monotone)', () => {
    fc.assert(
      fc.property(workingHours, instant, hours, hours, (wh, opened, a, b) => {
        const [few, many] = a <= b ? [a, b] : [b, a];
        expect(caseDueAt(opened, few, wh).getTime()).toBeLessThanOrEqual(caseDueAt(opened, many, wh).getTime());
        const later = new Date(opened.getTime() + b * 60_000);
        expect(caseDueAt(opened, a, wh).getTime()).toBeLessThanOrEqual(caseDueAt(later, a, wh).getTime());
      }),
      { numRuns: 200 },
    );
  }, 30_000);

  it('is never in closed hours: a working day, between its opening and its close', () => {
    fc.assert(
      fc.property(workingHours, instant, hours, (wh, opened, h) => {
        const due = caseDueAt(opened, h, wh);
        const { weekday, minutes } = local(due, wh.timeZone);
        const minutesOf = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));
        const [from, to] = [minutesOf(wh.from), minutesOf(wh.to)];
        // A window closing at 24:00 reads 00:00 on the next day.
        const closingAtMidnight = wh.to === '24:00' && minutes === 0 && wh.days.includes(WEEKDAYS[(WEEKDAYS.indexOf(weekday) + 6) % 7]!);
        const inside = wh.days.includes(weekday) && minutes >= from && minutes <= to;
        // A window's edge inside the gap of a change forward (02:30 on that night) is read after the jump (03:30).
        expect(closingAtMidnight || inside || clocksChangeAround(due, wh.timeZone)).toBe(true);
        expect(due.getTime()).toBeGreaterThanOrEqual(opened.getTime());
      }),
      { numRuns: 200 },
    );
  }, 30_000);

  it("reaches a deadline whose only window falls in the hour a change of clocks skips, that week's gone", () => {
    // Sundays 02:00 to 03:00 in New York: none on 9 March 2025 nor on 8 March 2026. 61 hours take 63 Sundays.
    const wh = { timeZone: 'America/New_York', days: ['sun' as const], from: '02:00', to: '03:00' };
    const due = caseDueAt(new Date('2025-01-01T00:00:00Z'), 61, wh);
    expect(due.toISOString()).toBe('2026-03-15T07:00:00.000Z');
    expect(caseDueAt(caseDueAt(new Date('2025-01-01T00:00:00Z'), 1, wh), 60, wh)).toEqual(due);
  });

  it('takes a deadline in two parts to the same time as in one (additive)', () => {
    fc.assert(
      fc.property(workingHours, instant, hours, hours, (wh, opened, a, b) => {
        expect(caseDueAt(caseDueAt(opened, a, wh), b, wh)).toEqual(caseDueAt(opened, a + b, wh));
      }),
      { numRuns: 200 },
    );
  }, 30_000);

  it('takes at least as long as the hours themselves, and exactly so for a tenant working round the clock', () => {
    const always = (timeZone: string): WorkingHours => ({ timeZone, days: WEEKDAYS, from: '00:00', to: '24:00' });
    fc.assert(
      fc.property(workingHours, instant, hours, (wh, opened, h) => {
        expect(caseDueAt(opened, h, wh).getTime()).toBeGreaterThanOrEqual(opened.getTime() + h * 3_600_000);
        expect(caseDueAt(opened, h, always(wh.timeZone))).toEqual(new Date(opened.getTime() + h * 3_600_000));
      }),
      { numRuns: 200 },
    );
  }, 30_000);
});
