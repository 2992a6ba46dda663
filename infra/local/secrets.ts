import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { SECRET_ENV, type SecretId } from '../grants.js';
import { reservePort } from './services.js';
import { listen } from './listen.js';

/**
 * Secrets Manager, locally: no emulator exists, so this answers GetSecretValue (the awsJson1_1 protocol) as the
 * service does, for the deployment's secrets. Their values are random, made when the stack starts, and kept in the
 * data directory when there is one (so that survey links and cursors outlive a restart), never in the repository.
 */
export interface LocalSecrets {
  endpoint: string;
  /** Each secret's ARN, as the stack would give it. */
  arns: Record<SecretId, string>;
  values: Record<SecretId, string>;
  stop(): Promise<void>;
}

const arnOf = (secret: SecretId) => `arn:aws:secretsmanager:us-east-1:000000000000:secret:survey-service/${secret}`;

function secretValues(dataDir: string | undefined): Record<SecretId, string> {
  const file = dataDir ? join(dataDir, 'secrets.json') : undefined;
  const kept = file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<Record<SecretId, string>>) : {};
  const values = Object.fromEntries(
    (Object.keys(SECRET_ENV) as SecretId[]).map((secret) => [secret, kept[secret] ?? randomBytes(36).toString('base64url')]),
  ) as Record<SecretId, string>;
  if (file) writeFileSync(file, JSON.stringify(values, null, 2), { mode: 0o600 });
  return values;
}

export async function startSecretsServer(options: { port: number; dataDir?: string | undefined }): Promise<LocalSecrets> {
  const port = await reservePort(options.port, 'Secrets Manager stand-in');
  const values = secretValues(options.dataDir);
  const arns = Object.fromEntries((Object.keys(values) as SecretId[]).map((secret) => [secret, arnOf(secret)])) as Record<SecretId, string>;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
        response.end(JSON.stringify(body));
      };
      if (request.headers['x-amz-target'] !== 'secretsmanager.GetSecretValue')
        return answer(400, { __type: 'UnknownOperationException', message: 'Only GetSecretValue is served locally.' });
      let id = '';
      try {
        id = String((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { SecretId?: unknown }).SecretId ?? '');
      } catch {
        return answer(400, { __type: 'ValidationException', message: 'The request body is not JSON.' });
      }
      const secret = (Object.keys(arns) as SecretId[]).find((s) => arns[s] === id || `survey-service/${s}` === id);
      if (!secret) return answer(400, { __type: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret." });
      answer(200, {
        ARN: arns[secret],
        Name: `survey-service/${secret}`,
        SecretString: values[secret],
        VersionId: '00000000-0000-0000-0000-000000000001',
        VersionStages: ['AWSCURRENT'],
        CreatedDate: 0,
      });
    });
  });
  const { url, stop } = await listen(server, port);
  return { endpoint: url, arns, values, stop };
}
