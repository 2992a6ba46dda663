import * as v from 'valibot';
import { ScoreDropRun } from '../../shared/results/score-drop-schedule.js';
import { queueHandler } from '../../shared/queue/handler.js';
import { scoreDropRuns } from '../../shared/adapters/wiring/results.js';

/** ScoreDropQueue consumer: one tenant's daily check (each store's alert claimed for its week), and the next day's parked. */
export const handler = queueHandler({ log: 'Score-drop checks', outcomes: 'ScoreDropChecks' }, async (record) => {
  const alerted = await scoreDropRuns.run(v.parse(ScoreDropRun, JSON.parse(record.body)));
  return alerted === 'off' ? 'off' : alerted.length ? 'alerted' : 'quiet';
});
