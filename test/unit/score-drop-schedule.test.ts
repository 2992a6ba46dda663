import { describe, expect, it } from 'vitest';
import { nextCheckAt, runCheck, turnedOn, type ScoreDropRun } from '../../shared/results/score-drop-schedule.js';
import type { Settings } from '../../shared/tenants/config-schema.js';

/** The daily score-drop check's schedule: when it runs, when it starts, and that it lapses when turned off. */
describe('the score-drop schedule', () => {
  it('runs at 07:00 in the tenant zone: today when it is still to come, else tomorrow', () => {
    const at = (now: string, zone: string) => nextCheckAt(new Date(now), zone).toISOString();
    expect(at('2031-03-10T09:59:00Z', 'America/Sao_Paulo')).toBe('2031-03-10T10:00:00.000Z');
    expect(at('2031-03-10T10:00:00Z', 'America/Sao_Paulo')).toBe('2031-03-11T10:00:00.000Z');
    expect(at('2031-03-10T23:30:00Z', 'Asia/Tokyo')).toBe('2031-03-11T22:00:00.000Z');
    expect(at('2031-03-10T21:00:00Z', 'Asia/Tokyo')).toBe('2031-03-10T22:00:00.000Z');
    expect(at('2031-03-10T06:59:59Z', 'UTC')).toBe('2031-03-10T07:00:00.000Z');
  });

  it('starts when a change turns the alert on, not on any other change', () => {
    expect(turnedOn([{ path: 'alerts.scoreDrop', old: false, new: true }])).toBe(true);
    expect(turnedOn([{ path: 'alerts.scoreDrop', old: true, new: false }])).toBe(false);
    expect(turnedOn([{ path: 'name', old: 'a', new: 'b' }])).toBe(false);
  });

  const world = (scoreDrop: boolean) => {
    const parked: { run: ScoreDropRun; dueAt: string }[] = [];
    const checked: string[] = [];
    const settings = { timeZone: 'America/Sao_Paulo', alerts: { scoreDrop } } as Settings;
    const ports = {
      settings: async () => settings,
      check: async (_tenant: number, day: string) => (checked.push(day), [3]),
      timer: { schedule: async (run: ScoreDropRun, dueAt: Date) => void parked.push({ run, dueAt: dueAt.toISOString() }) },
    };
    return { ports, parked, checked };
  };
  const run: ScoreDropRun = { version: 1, tenantId: 7, day: '2031-03-10', dueAt: '2031-03-10T10:00:00.000Z' };

  it('checks the day it is due and parks the next day, from its due time even when delivered early', async () => {
    const { ports, parked, checked } = world(true);
    expect(await runCheck(ports, run, new Date('2031-03-10T09:59:58Z'))).toEqual([3]);
    expect(checked).toEqual(['2031-03-10']);
    expect(parked).toEqual([{ run: { version: 1, tenantId: 7, day: '2031-03-11' }, dueAt: '2031-03-11T10:00:00.000Z' }]);
  });

  it('lapses when the alert is off: no check, no next run', async () => {
    const { ports, parked, checked } = world(false);
    expect(await runCheck(ports, run, new Date('2031-03-10T10:00:01Z'))).toBe('off');
    expect([parked, checked]).toEqual([[], []]);
  });
});
