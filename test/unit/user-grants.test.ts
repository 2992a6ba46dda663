import { describe, expect, it } from 'vitest';
import { outsideScope, sameScope } from '../../shared/access/user-scope.js';
import { changeRefusal, grantRefusal, type Grantor } from '../../shared/access/tenant-users.js';
import type { UserRecord } from '../../shared/access/ports.js';

const user = (name: string, scope: UserRecord['scope'], role?: UserRecord['role']): UserRecord => ({
  name,
  scope,
  tokenHash: `hash-${name}`,
  created_at: '2026-01-01T00:00:00.000Z',
  ...(role ? { role } : {}),
});

describe('a scope within another', () => {
  it('names what lies outside: nothing, every store, or the stores and groups not listed', () => {
    expect(outsideScope({ stores: [1], groups: [] }, 'all')).toBeUndefined();
    expect(outsideScope('all', { stores: [1], groups: [1] })).toBe('all');
    expect(outsideScope({ stores: [1, 2, 3], groups: [1, 4] }, { stores: [1], groups: [1] })).toEqual({
      stores: [2, 3],
      groups: [4],
      regions: [],
    });
    expect(outsideScope({ stores: [], groups: [] }, { stores: [1], groups: [] })).toBeUndefined();
    expect(sameScope({ stores: [2, 1], groups: [1] }, { stores: [1, 2], groups: [1] })).toBe(true);
    expect(sameScope({ stores: [1], groups: [1] }, { stores: [1, 2], groups: [1] })).toBe(false);
    expect(sameScope('all', 'all')).toBe(true);
  });
});

describe('what an admin user may grant', () => {
  const limited: Grantor = user('limitada@x.example', { stores: [1, 2], groups: [1] }, 'admin');

  it('lets an admin key or the operator grant anything', () => {
    expect(grantRefusal('all', { scope: 'all', role: 'admin' })).toBeUndefined();
    expect(changeRefusal('all', user('quem@x.example', 'all', 'admin'), { role: 'member', disabled: true })).toBeUndefined();
  });

  it('refuses a scope outside their own, naming what is outside, and a role above their own', () => {
    expect(grantRefusal(limited, { scope: { stores: [1], groups: [1] }, role: 'admin' })).toBeUndefined();
    expect(grantRefusal(limited, { scope: 'all' })?.message).toBe(
      'You cannot grant a scope wider than your own: every store and group is outside it.',
    );
    expect(grantRefusal(limited, { scope: { stores: [3], groups: [2] } })?.message).toBe(
      'You cannot grant a scope wider than your own: stores 3, groups 2 are outside it.',
    );
    // The routes let only admins in, the top role today; the rule holds for any grantor all the same.
    const member: Grantor = user('membro@x.example', 'all', 'member');
    expect(grantRefusal(member, { role: 'admin' })?.message).toBe('You cannot grant a role above your own.');
    expect(grantRefusal(member, { role: 'member' })).toBeUndefined();
  });

  it("refuses changing their own scope or role, and any change of a user who sees more; never a same scope's resend", () => {
    const self = user('Limitada@x.example', { stores: [1, 2], groups: [1] }, 'admin');
    expect(changeRefusal(limited, self, { scope: { stores: [2, 1], groups: [1] }, role: 'admin' })).toBeUndefined();
    expect(changeRefusal(limited, self, { scope: { stores: [1], groups: [1] } })?.refused).toBe('own-scope');
    expect(changeRefusal(limited, self, { role: 'member' })?.refused).toBe('own-role');
    expect(changeRefusal(limited, user('toda@x.example', 'all'), { disabled: true })?.refused).toBe('user');
    expect(changeRefusal(limited, user('outra@x.example', { stores: [3], groups: [] }), { phone: null })?.refused).toBe('user');
    expect(
      changeRefusal(limited, user('loja@x.example', { stores: [1], groups: [] }), { scope: { stores: [1, 3], groups: [] } })?.refused,
    ).toBe('scope');
    expect(changeRefusal(limited, user('loja@x.example', { stores: [1], groups: [] }), { disabled: true })).toBeUndefined();
  });
});
