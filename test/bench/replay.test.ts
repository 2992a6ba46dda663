import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { capture, replayable } from '../../bench/latency.js';
import { db } from '../../shared/adapters/dynamodb.js';
import { privacySlots } from '../../shared/adapters/privacy-slots.js';
import { keys } from '../../shared/keys.js';

/** The latency floor replays what a handler did; a replay that fails stops the whole benchmark. */
describe("the latency floor's replay", () => {
  const tenant = 900_000 + Math.floor(Math.random() * 90_000);

  it('replays a place taken over from its previous holder, which the condition alone would refuse', async () => {
    expect(await privacySlots.claim(tenant, { slot: 1, holder: 'first', at: new Date().toISOString() })).toBe(true);
    const recorder = capture();
    try {
      expect(await privacySlots.claim(tenant, { slot: 1, holder: 'second', at: new Date().toISOString(), previous: 'first' })).toBe(true);
    } finally {
      recorder.stop();
    }
    expect(recorder.calls).toHaveLength(1);
    await expect(replayable(recorder.calls[0]!)()).resolves.toBeDefined();
    const { client, tableName } = db();
    const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.privacySlot(tenant, 1) }));
    expect(Item?.holder).toBe('second');
  });

  it('sends a Put that may only create to a key of its own, leaving the original alone', async () => {
    const recorder = capture();
    try {
      expect(await privacySlots.claim(tenant, { slot: 2, holder: randomUUID(), at: new Date().toISOString() })).toBe(true);
    } finally {
      recorder.stop();
    }
    await expect(replayable(recorder.calls[0]!)()).resolves.toBeDefined();
    expect((await privacySlots.held(tenant)).filter((slot) => slot.slot === 2)).toHaveLength(1);
  });
});
