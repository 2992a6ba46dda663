import * as v from 'valibot';
import { describeIssue } from '../schema.js';
import { toE164 } from '../customers/phone.js';
import { TenantFile } from './config-schema.js';

export class TenantFileError extends Error {}

/**
 * Reads a declarative tenant file (JSON). String values may name environment variables as `${NAME}` or
 * `${NAME:-default}`, so that secrets need not be written in the file. Errors name the field that is wrong.
 */
export function parseTenantFile(text: string, env: NodeJS.ProcessEnv = process.env): TenantFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new TenantFileError(`The tenant file is not valid JSON: ${(error as Error).message}`);
  }
  const expanded = expand(raw, env, '');
  const result = v.safeParse(TenantFile, expanded);
  if (!result.success) {
    throw new TenantFileError(result.issues.map((issue) => `${fieldName(issue)}: ${describeIssue(issue)}`).join('\n'));
  }
  // A manager's phone is normalised as a customer's is (E.164, +55 assumed); the wrong one is named, never shown.
  const problems: string[] = [];
  result.output.tenants.forEach((tenant, t) =>
    tenant.users.forEach((user, u) => {
      if (user.phone === undefined) return;
      const e164 = toE164(user.phone);
      if (e164) user.phone = e164;
      else problems.push(`tenants[${t}].users[${u}].phone: is not a phone number`);
    }),
  );
  if (problems.length) throw new TenantFileError(problems.join('\n'));
  return result.output;
}

function expand(value: unknown, env: NodeJS.ProcessEnv, path: string): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{(\w+)(?::-([^}]*))?\}/g, (_, name: string, fallback: string | undefined) => {
      const resolved = env[name] || fallback;
      if (resolved === undefined) throw new TenantFileError(`${path}: environment variable ${name} is not set and has no default`);
      return resolved;
    });
  }
  if (Array.isArray(value)) return value.map((item, i) => expand(item, env, `${path}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expand(item, env, path ? `${path}.${key}` : key)]));
  }
  return value;
}

function fieldName(issue: v.BaseIssue<unknown>): string {
  return (
    (issue.path ?? []).reduce<string>(
      (name, item) => (typeof item.key === 'number' ? `${name}[${item.key}]` : name ? `${name}.${String(item.key)}` : String(item.key)),
      '',
    ) || '(file)'
  );
}
