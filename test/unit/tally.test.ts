import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerTally, countedOf, scoredRating, sentDayOf, sentTally, type CounterDelta } from '../../shared/results/tally.js';
import type { Settings } from '../../shared/tenants/config-schema.js';

/**
 * The result counters against random lives of surveys: attempts sent and failed, answers and corrections, on days
 * that move on. Whatever the order, no counter ever shows more responses than surveys sent (issue 29, M4: a store
 * showed response_rate 4).
 */

const settings: Pick<Settings, 'journeys' | 'classes'> = {
  journeys: [
    {
      id: 1,
      slug: 'loja',
      indicator: 'nps',
      classes: [],
      channels: ['email'],
      resurveyWindowDays: null,
      surveyValidityDays: 7,
      handOff: [],
    },
  ],
  classes: [],
};

const START = Date.parse('2026-11-01T10:00:00Z');

/** A survey as the table keeps what the tally reads of it. */
interface Survey {
  journey_id: number;
  store_id: number;
  employee_id: number;
  survey: { sent_at?: string };
  attempts: { sent_at?: string }[];
  /** Attempts left to send or fail. */
  left: number;
  rating: { score: number } | null;
  rating_items: [];
  answeredAt: string | null;
}

type Step = { survey: number; kind: 'send' | 'fail' | 'answer' | 'correct'; score: number; laterHours: number };

/** Runs the steps as the delivery and the answer path do, summing every counter the tally writes. */
function live(surveys: Survey[], steps: Step[]) {
  const counters = new Map<string, Record<string, number>>();
  const add = (deltas: CounterDelta[]) => {
    for (const delta of deltas) {
      const id = `${delta.dimension}#${delta.ids.join('#')}#${delta.day}`;
      const counter = counters.get(id) ?? {};
      for (const [name, value] of Object.entries(delta.add)) counter[name] = (counter[name] ?? 0) + value;
      counters.set(id, counter);
    }
  };
  let now = START;
  for (const step of steps) {
    now += step.laterHours * 3_600_000;
    const at = new Date(now);
    const s = surveys[step.survey % surveys.length]!;
    if ((step.kind === 'send' || step.kind === 'fail') && s.left > 0) {
      s.left--;
      if (step.kind === 'fail') s.attempts.push({});
      else {
        // A survey counts as sent with its first attempt that goes out (an answer may already be there: the chatbot was quicker).
        if (sentDayOf(s) === null) add(sentTally(countedOf(s), at));
        s.attempts.push({ sent_at: at.toISOString() });
        s.survey.sent_at = at.toISOString();
      }
    }
    if (step.kind === 'answer' && !s.answeredAt) {
      s.answeredAt = at.toISOString();
      s.rating = { score: step.score };
      add(answerTally(countedOf(s), scoredRating(s, settings, { answeredAt: s.answeredAt, sentOn: sentDayOf(s) })!));
    }
    if (step.kind === 'correct' && s.answeredAt) {
      const sentOn = sentDayOf(s);
      const previous = scoredRating(s, settings, { answeredAt: s.answeredAt, sentOn })!;
      s.rating = { score: step.score };
      add(answerTally(countedOf(s), scoredRating(s, settings, { answeredAt: s.answeredAt, sentOn })!, previous));
    }
  }
  return counters;
}

const surveyArb = fc.record({
  store: fc.integer({ min: 1, max: 2 }),
  employee: fc.integer({ min: 1, max: 2 }),
  attempts: fc.integer({ min: 1, max: 3 }),
});
const stepArb = fc.record({
  survey: fc.nat(),
  kind: fc.constantFrom<Step['kind']>('send', 'fail', 'answer', 'correct'),
  score: fc.integer({ min: 0, max: 10 }),
  laterHours: fc.constantFrom(0, 1, 6, 20, 30),
});
const surveysOf = (plans: { store: number; employee: number; attempts: number }[]): Survey[] =>
  plans.map((plan) => ({
    journey_id: 1,
    store_id: plan.store,
    employee_id: plan.employee,
    survey: {},
    attempts: [],
    left: plan.attempts,
    rating: null,
    rating_items: [],
    answeredAt: null,
  }));

describe('result counters', () => {
  it('never count more responses than surveys sent, on any day, for any store, employee or pair, nor fewer than none', () => {
    fc.assert(
      fc.property(fc.array(surveyArb, { minLength: 1, maxLength: 6 }), fc.array(stepArb, { maxLength: 60 }), (plans, steps) => {
        const surveys = surveysOf(plans);
        const counters = live(surveys, steps);
        for (const [id, counter] of counters) {
          const r = counter.r ?? 0;
          if (r < 0 || r > (counter.sent ?? 0)) throw new Error(`${id}: ${r} responses to ${counter.sent ?? 0} surveys sent`);
        }
        // Every answer counts once as an answer, corrections or not.
        const answers = [...counters].filter(([id]) => id.startsWith('all#')).reduce((n, [, c]) => n + (c.n ?? 0), 0);
        expect(answers).toBe(surveys.filter((s) => s.answeredAt).length);
      }),
      { numRuns: 2000 },
    );
  });

  it('count an answer to a survey never sent as an answer, not a response', () => {
    const [survey] = surveysOf([{ store: 1, employee: 1, attempts: 1 }]);
    const counters = live(
      [survey!],
      [
        { survey: 0, kind: 'fail', score: 0, laterHours: 0 },
        { survey: 0, kind: 'answer', score: 9, laterHours: 1 },
      ],
    );
    expect(counters.get('store#1#2026-11-01')).toEqual({ n: 1, sum: 9, p: 1 });
  });

  it('count a response on the day its survey was sent, beside its sent, when it is answered the day after', () => {
    const [survey] = surveysOf([{ store: 1, employee: 1, attempts: 1 }]);
    const counters = live(
      [survey!],
      [
        { survey: 0, kind: 'send', score: 0, laterHours: 0 },
        { survey: 0, kind: 'answer', score: 3, laterHours: 20 },
        { survey: 0, kind: 'correct', score: 10, laterHours: 1 },
      ],
    );
    expect(counters.get('store#1#2026-11-01')).toEqual({ sent: 1, r: 1 });
    expect(counters.get('store#1#2026-11-02')).toEqual({ n: 1, sum: 10, p: 1, d: 0 });
  });
});
