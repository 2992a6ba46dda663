import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { DEMO_TENANTS_FILE } from '../../infra/local/demo.js';
import { ENV } from '../../shared/config.js';
import { parseTenantFile } from '../../shared/tenants/tenant-file.js';

/** A placeholder a customer would read as the tenant's: "Como foi sua experiência com Default store?". */
const PLACEHOLDER = /Default (store|employee)/;

/** Every file the service's customer-facing text can come from: the code, its templates and the demo tenants. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|json|html|css|js)$/.test(name) ? [path] : [];
  });
}

describe('no placeholder names', () => {
  it('no source of the service names a store or an employee "Default store" or "Default employee"', () => {
    const found = ['shared', 'functions', 'infra'].flatMap(sources).filter((path) => PLACEHOLDER.test(readFileSync(path, 'utf8')));
    expect(found).toEqual([]);
  });

  it("the demo tenants' first stores and employees have real names", () => {
    // The demo file is the local stack's: its chatbot and webhooks are http on this machine.
    vi.stubEnv(ENV.localDeployment, '1');
    const { tenants } = parseTenantFile(readFileSync(DEMO_TENANTS_FILE, 'utf8'), {});
    for (const tenant of tenants) {
      expect(tenant.firstStore?.store).toMatch(/^Loja /);
      expect(tenant.firstStore?.employee).toMatch(/^\p{Lu}\p{Ll}+ \p{Lu}\p{Ll}+$/u);
    }
  });
});
