import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import { configured, secretArnVariable, type SecretName } from '../config.js';

/** Once per secret and container: the concurrent first requests of a cold start share one read. */
const reads = new Map<string, Promise<void>>();

/**
 * Reads each secret named from Secrets Manager into the variable the code reads, once for the container's life
 * (Powertools Parameters, cached for as long as the container lives): a module that needs a secret awaits this at
 * load, so the cost falls on the cold start and never on a request. A value already set (the admin command, a test)
 * is kept; without an ARN nothing is read (in a function runtime requireEnvs has already failed the cold start), and
 * nothing is remembered, so a later call once the ARN is given does read it.
 */
export function loadSecrets(...names: SecretName[]): Promise<void> {
  return Promise.all(
    names.map((name) => {
      const arn = process.env[secretArnVariable(name)];
      if (process.env[name] || !arn) return;
      let read = reads.get(arn);
      if (!read) {
        read = readSecret(name, arn);
        reads.set(arn, read);
        // A failed read is tried again by the next load, not remembered.
        read.catch(() => reads.delete(arn));
      }
      return read;
    }),
  ).then(() => undefined);
}

async function readSecret(name: SecretName, arn: string): Promise<void> {
  const value = await getSecret(arn, { maxAge: CONTAINER_LIFE_SECONDS });
  if (typeof value !== 'string' || value.length < 16) throw new Error(`The secret ${secretArnVariable(name)} names is empty or too short.`);
  process.env[name] = value;
}

/** Lambda recycles a container within hours; a secret rotates by an operator's procedure (docs/security.md). */
const CONTAINER_LIFE_SECONDS = 24 * 3600;

/** `configured(name)` for a secret: its getter, once the secret is read. */
export async function configuredSecret(name: SecretName): Promise<() => string> {
  const read = configured(name);
  await loadSecrets(name);
  return read;
}
