import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  ListUserPoolClientsCommand,
  ListUserPoolsCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { LOCAL_CREDENTIALS, LOCAL_REGION, ownChild, reservePort, StartupError } from './services.js';

/**
 * The Cognito emulator: cognito-local (npm), a Node program that speaks Cognito's JSON API, issues RS256 tokens and
 * serves their JWKS, all offline. It runs as a child process in a directory of its own (it keeps its pools there:
 * DATA_DIR/cognito when set, else a temporary directory removed on stop). The pool and its client are made as the
 * stack makes them (infra/stack.ts: email sign-in, `custom:tenant_id`, USER_PASSWORD_AUTH and refresh).
 */
export const USER_POOL_NAME = 'survey-service-managers';
const CLIENT_NAME = 'workspace';

export interface LocalCognito {
  endpoint: string;
  stop(): Promise<void>;
}

export async function startCognitoLocal(options: { port: number; dataDir?: string | undefined }): Promise<LocalCognito> {
  const port = await reservePort(options.port, 'Cognito emulator');
  const endpoint = `http://127.0.0.1:${port}`;
  const dir = options.dataDir ? join(options.dataDir, 'cognito') : mkdtempSync(join(tmpdir(), 'cognito-local-'));
  mkdirSync(join(dir, '.cognito'), { recursive: true });
  // Tokens name this issuer, which the session authorizer verifies against (USER_POOL_ISSUER).
  writeFileSync(
    join(dir, '.cognito', 'config.json'),
    JSON.stringify({ TokenConfig: { IssuerDomain: endpoint }, UserPoolDefaults: { UsernameAttributes: ['email'] } }),
  );
  const main = join(dirname(createRequire(import.meta.url).resolve('cognito-local/package.json')), 'lib', 'bin', 'start.js');
  const child: ChildProcess = ownChild(
    spawn(process.execPath, [main], {
      cwd: dir,
      env: { PATH: process.env.PATH, PORT: String(port), HOST: '127.0.0.1' },
      stdio: 'ignore',
    }),
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    if (!options.dataDir) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new StartupError(`The Cognito emulator exited with code ${child.exitCode}.`);
      const ready = await fetch(`${endpoint}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline) throw new StartupError('The Cognito emulator did not start within 30 seconds.');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoint, stop };
}

/** A client of the emulator (or, without an endpoint, of Cognito as the SDK finds it). */
export const cognitoClient = (endpoint: string) =>
  new CognitoIdentityProviderClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });

/** The managers' pool and the workspace's client, made once (found again in a kept data directory). */
export async function setupUserPool(endpoint: string): Promise<{ userPoolId: string; clientId: string; issuer: string }> {
  const client = cognitoClient(endpoint);
  try {
    const { UserPools } = await client.send(new ListUserPoolsCommand({ MaxResults: 60 }));
    const userPoolId =
      UserPools?.find((pool) => pool.Name === USER_POOL_NAME)?.Id ??
      (
        await client.send(
          new CreateUserPoolCommand({
            PoolName: USER_POOL_NAME,
            UsernameAttributes: ['email'],
            MfaConfiguration: 'OPTIONAL',
            Schema: [{ Name: 'tenant_id', AttributeDataType: 'String', Mutable: false }],
          }),
        )
      ).UserPool!.Id!;
    const { UserPoolClients } = await client.send(new ListUserPoolClientsCommand({ UserPoolId: userPoolId, MaxResults: 60 }));
    const clientId =
      UserPoolClients?.find((c) => c.ClientName === CLIENT_NAME)?.ClientId ??
      (
        await client.send(
          new CreateUserPoolClientCommand({
            UserPoolId: userPoolId,
            ClientName: CLIENT_NAME,
            ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
            IdTokenValidity: 15,
            AccessTokenValidity: 15,
            RefreshTokenValidity: 30,
            TokenValidityUnits: { IdToken: 'minutes', AccessToken: 'minutes', RefreshToken: 'days' },
          }),
        )
      ).UserPoolClient!.ClientId!;
    return { userPoolId, clientId, issuer: `${endpoint}/${userPoolId}` };
  } finally {
    client.destroy();
  }
}
