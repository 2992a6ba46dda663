import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db, nextId } from '../../shared/adapters/dynamodb.js';
import { keys } from '../../shared/keys.js';

/** Counts the counter updates the document client sends while `work` runs. */
async function counterWrites<T>(work: () => Promise<T>): Promise<{ result: T; writes: number }> {
  let writes = 0;
  const name = `count-${randomUUID()}`;
  db().client.middlewareStack.add(
    ((next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
      if (context.commandName === 'UpdateItemCommand' || context.commandName === 'UpdateCommand') writes++;
      return next(args);
    }) as never,
    { step: 'initialize', name },
  );
  try {
    return { result: await work(), writes };
  } finally {
    db().client.middlewareStack.remove(name);
  }
}

// A tenant id of its own: the counter and this process's blocks start from nothing.
const tenantId = 900_000_000 + Math.floor(Math.random() * 1_000_000);

describe('ids reserved in blocks', () => {
  it('hand 50 concurrent creates 50 distinct ids from shared reservations, not one reservation each', async () => {
    const { result: ids, writes } = await counterWrites(() =>
      Promise.all(Array.from({ length: 50 }, () => nextId(db(), tenantId, { entity: 'CUSTOMER', blockSize: 20 }))),
    );
    expect(new Set(ids).size).toBe(50);
    expect(Math.min(...ids)).toBe(1);
    // 50 ids are three blocks of 20, and the next one reserved ahead once half of the third was used.
    expect(writes).toBeLessThanOrEqual(4);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the reservation ahead lands
    const { Item } = await db().client.send(new GetCommand({ TableName: db().tableName, Key: keys.counter(tenantId, 'CUSTOMER') }));
    expect(Item?.value).toBe(writes * 20);
  });

  it('reserve the next block before the current one runs out, so a steady stream of creates does not wait for it', async () => {
    const first = await nextId(db(), tenantId + 1, { entity: 'CUSTOMER', blockSize: 20 });
    for (let i = 1; i < 11; i++) await nextId(db(), tenantId + 1, { entity: 'CUSTOMER', blockSize: 20 });
    // Half the block used: the next block is reserved in the background.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const { result: rest, writes } = await counterWrites(async () => {
      const ids: number[] = [];
      for (let i = 11; i < 20; i++) ids.push(await nextId(db(), tenantId + 1, { entity: 'CUSTOMER', blockSize: 20 }));
      ids.push(await nextId(db(), tenantId + 1, { entity: 'CUSTOMER', blockSize: 20 }));
      return ids;
    });
    expect(first).toBe(1);
    expect(rest.slice(0, 9)).toEqual([12, 13, 14, 15, 16, 17, 18, 19, 20]);
    // The 21st id came from the block reserved ahead: no create waited for the counter.
    expect(rest[9]).toBe(21);
    expect(writes).toBe(0);
  });
});
