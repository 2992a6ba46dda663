import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import autocannon from 'autocannon';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { db } from '../shared/adapters/dynamodb.js';
import { requireEnv } from '../shared/config.js';
import { keys } from '../shared/keys.js';
import { QUEUES } from '../shared/queues.js';
import { API_KEY_HEADER } from '../shared/headers.js';
import type { Fixture } from '../infra/examples.js';
import { v2Payload } from '../test/support/transactions.js';

/**
 * Through HTTP: requests a second and latency of two hot routes through the local gateway (authorizer cached as
 * API Gateway caches it, handler, DynamoDB Local or the SQS server), with autocannon on loopback at a fixed number
 * of connections for a fixed time. Beside each, the floor: a bare node:http server on the same machine making the
 * same SDK call and nothing else (no authorizer, validation, logging or gateway mapping), run the same way.
 */
export interface HttpOptions {
  seconds: number;
  connections: number;
  /** A number of requests instead of a time: the smoke test's, which must see answers however busy the machine. */
  amount?: number;
}

interface Run {
  name: string;
  url: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: () => string;
}

async function load(run: Run, { seconds, connections, amount }: HttpOptions) {
  const result = await autocannon({
    url: run.url,
    connections,
    ...(amount ? { amount } : { duration: seconds }),
    requests: [
      {
        method: run.method,
        path: run.path,
        headers: run.headers,
        ...(run.body ? { setupRequest: (request: autocannon.Request) => ({ ...request, body: run.body!() }) } : {}),
      },
    ],
  });
  return {
    // A run of a fixed number of requests may end within its first second, which autocannon's average does not count.
    rps: amount ? result.requests.total / result.duration : result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad: result.non2xx + result.errors + result.timeouts,
    total: result.requests.total,
  };
}

/** The floor server: each request makes the one SDK call the route needs and answers its result as JSON. */
async function floorServer(f: Fixture): Promise<{ url: string; server: Server }> {
  const { client, tableName } = db();
  const sqs = new SQSClient({});
  const queueUrl = requireEnv(QUEUES.transactions.urlEnv);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const send = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method === 'GET') {
        const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.entity(f.tenantId, 'STORE', f.storeId) }));
        send(200, Item);
      } else {
        const payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
        await sqs.send(
          new SendMessageCommand({
            QueueUrl: queueUrl,
            MessageBody: JSON.stringify({
              version: 1,
              tenantId: f.tenantId,
              requestId: 'floor',
              receivedAt: new Date().toISOString(),
              payload,
            }),
          }),
        );
        send(201, payload);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

export async function httpThroughput(publicUrl: string, f: Fixture, options: HttpOptions): Promise<string> {
  const floor = await floorServer(f);
  const headers = { [API_KEY_HEADER]: f.key, 'content-type': 'application/json' };
  const body = () => JSON.stringify(v2Payload());
  const pairs: [Run, Run][] = [
    [
      { name: `GET /public/store/{id}`, url: publicUrl, method: 'GET', path: `/public/store/${f.storeId}`, headers },
      { name: 'floor: node:http + GetItem', url: floor.url, method: 'GET', path: '/', headers },
    ],
    [
      { name: 'POST /v2/transactions', url: publicUrl, method: 'POST', path: '/v2/transactions', headers, body },
      { name: 'floor: node:http + SendMessage', url: floor.url, method: 'POST', path: '/', headers, body },
    ],
  ];
  const rows: string[] = [];
  try {
    for (const [route, bare] of pairs) {
      // A short warm-up of each, then the measured runs.
      await load(route, { ...options, seconds: 1 });
      await load(bare, { ...options, seconds: 1 });
      const [r, b] = [await load(route, options), await load(bare, options)];
      rows.push(`| ${route.name} | ${r.total} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.bad} | ${(r.rps / b.rps).toFixed(2)} |`);
      rows.push(`| ${bare.name} | ${b.total} | ${b.rps.toFixed(0)} | ${b.p50} | ${b.p99} | ${b.bad} | 1.00 |`);
    }
  } finally {
    floor.server.close();
  }
  return [
    `### Through HTTP (local gateway on loopback, autocannon: ${options.connections} connections, ${options.seconds} s each; DynamoDB Local and the SQS server)`,
    '',
    '| route | requests | requests/s | p50 ms | p99 ms | non-2xx or errors | requests/s ÷ floor |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    'Target: zero non-2xx answers. The queue poller consumes the transactions while both POST runs send them.',
  ].join('\n');
}
