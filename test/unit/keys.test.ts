import { describe, expect, it } from 'vitest';
import { keys, padId } from '../../shared/keys.js';
import { hashSecret, newSecret } from '../../shared/access/credentials.js';

describe('keys', () => {
  it('start every tenant item with the tenant', () => {
    expect(keys.entity(12, 'STORE', 3)).toEqual({ pk: 'T#12#STORE#3', sk: 'STORE' });
    expect(keys.externalId(12, 'STORE', 'EX-1').pk).toBe('T#12#STORE#EXT#EX-1');
    expect(keys.collection(12, 'STORE')).toBe('T#12#STORE');
  });

  it('build the same strings from records as the stored items hold', () => {
    // Pinned: the stored data keeps these keys, whatever shape the builders' arguments take.
    expect(keys.qrAnswers(7, { tokenHash: 'ab12', addressHash: 'cd34', window: 493000 })).toEqual({
      pk: 'T#7#QRRATE#ab12#cd34',
      sk: 'W#493000',
    });
    expect(keys.byValue(7, { entity: 'CUSTOMER', field: 'email', value: 'a@b.example' })).toBe('T#7#CUSTOMER#EMAIL#a@b.example');
    expect(keys.byStatus(7, 'STORE', 'active')).toBe('T#7#STORE#STATUS#active');
    expect(keys.answersByStoreWith(7, 1, { filter: 'theme', value: 'wait' })).toBe('T#7#ANSWERS#STORE#1#THEME#wait');
    expect(keys.answersByShardWith(7, 3, { filter: 'sentiment', value: 'negative' })).toBe('T#7#ANSWERS#SHARD#3#SENTIMENT#negative');
    expect(keys.answerFilterEntry(7, 123456, { filter: 'theme', value: 'wait' })).toEqual({
      pk: 'T#7#TX#123456',
      sk: 'ANSWERS#THEME#wait',
    });
    expect(keys.results(7, { journeyId: 1, partition: '2026-11' })).toBe('T#7#RESULTS#1#2026-11');
    expect(keys.results(7, { journeyId: 1, partition: '2026', shard: { dimension: 'store', index: 2 } })).toBe(
      'T#7#RESULTS#1#2026#store#2',
    );
    expect(keys.resultSort({ grain: 'day', dimension: 'store', ids: [1, 2], period: '2026-11-23' })).toBe('D#store#1#2#2026-11-23');
    expect(keys.resultSort({ grain: 'month', dimension: 'all', ids: [] })).toBe('M#all#');
    expect(keys.themeSort({ dimension: 'storeJourney', id: [1, 2], grain: 'month', period: '2026-11', theme: 'wait' })).toBe(
      'storeJourney#1#2#M#2026-11#wait',
    );
    expect(keys.phraseSort({ dimension: 'store', id: 1, grain: 'day', period: '2026-11-20', phrase: 'estacion' })).toBe(
      'store#1#D#2026-11-20#estacion',
    );
    expect(keys.caseSort({ rank: 2, overdue: false, dueAt: '2026-11-24T10:00:00.000Z', id: 123456 })).toBe(
      '2#1#2026-11-24T10:00:00.000Z#0000123456',
    );
    expect(keys.customerAccess(7, 5, { at: '2026-11-23T10:00:00Z', requestId: 'r1' })).toEqual({
      pk: 'T#7#CUSTOMER#5',
      sk: 'ACCESS#2026-11-23T10:00:00Z#r1',
    });
    expect(keys.digestClaim(7, { user: 'gerente@demo.local', period: 'week', from: '2026-11-16' })).toEqual({
      pk: 'T#7#DIGEST#week#2026-11-16',
      sk: 'USER#gerente@demo.local',
    });
  });

  it('pad ids so that sort keys sort numerically', () => {
    expect([padId(10), padId(9), padId(100)].sort()).toEqual([padId(9), padId(10), padId(100)]);
  });
});

describe('secrets', () => {
  it('are high-entropy and hash to a stable SHA-256', () => {
    const a = newSecret('ssk');
    expect(a).toMatch(/^ssk_[\w-]{43}$/);
    expect(newSecret('ssk')).not.toBe(a);
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
