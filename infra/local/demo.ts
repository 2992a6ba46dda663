import type { UserScope } from '../../shared/tenants/config-schema.js';

/*
 * The demo the local stack seeds (`npm start`, and the tests' stack): its tenants, and the managers who sign in. Light
 * on purpose: every test file that makes a tenant reads the demo's configuration, without loading the stack.
 */

/** The demo tenants' file: journeys, classes, groups, brand (docs/administration.md), applied at start. */
export const DEMO_TENANTS_FILE = new URL('./demo-tenants.json', import.meta.url);

/**
 * The demo tenant's managers who sign in to the workspace locally (docs/workspace.md): the local stack makes
 * each one's tenant user (its scope) and Cognito user (its password) at start. The passwords exist only in the local
 * emulator.
 */
export const DEMO_MANAGERS: readonly { tenantId: number; email: string; password: string; scope: UserScope }[] = [
  { tenantId: 1, email: 'gerente@demo.local', password: process.env.LOCAL_MANAGER_PASSWORD ?? 'Gerente-demo-1', scope: 'all' },
  {
    tenantId: 1,
    email: 'gerente.loja1@demo.local',
    password: process.env.LOCAL_STORE_MANAGER_PASSWORD ?? 'Loja1-demo-1',
    scope: { stores: [1], groups: [1] },
  },
];
