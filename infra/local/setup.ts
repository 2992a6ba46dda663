import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { ASYNC_FAILURES, MAX_RECEIVE_COUNT, QUEUES, visibilityTimeoutOf, type QueueId } from '../../shared/queues.js';
import { projectionOf, TABLE } from '../../shared/table.js';

const indexDeclaration = (index: (typeof TABLE.indexes)[number]) => ({
  IndexName: index.name,
  KeySchema: [
    { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
    { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
  ],
  Projection: projection(index),
});

const projection = (index: (typeof TABLE.indexes)[number]) => {
  const declared = projectionOf(index);
  return declared.type === 'INCLUDE'
    ? { ProjectionType: declared.type, NonKeyAttributes: [...declared.attributes] }
    : { ProjectionType: declared.type };
};

/**
 * Creates the table from its one declaration, as the CDK stack does. A table kept from an older version (the local
 * data directory) gets the indexes it lacks, one at a time, as DynamoDB allows.
 */
export async function createTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
    for (const index of TABLE.indexes.filter((declared) => !present.has(declared.name)))
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: [index.partitionKey, index.sortKey].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
          GlobalSecondaryIndexUpdates: [{ Create: indexDeclaration(index) }],
        }),
      );
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const attributes = new Set<string>([TABLE.partitionKey, TABLE.sortKey, ...TABLE.indexes.flatMap((i) => [i.partitionKey, i.sortKey])]);
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: TABLE.indexes.map(indexDeclaration),
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true } }),
  );
}

export type QueueUrls = Record<QueueId, string>;

/** Creates each queue with its dead-letter queue (moved there after MAX_RECEIVE_COUNT receives). */
export async function createQueues(client: SQSClient, prefix = ''): Promise<QueueUrls> {
  const urls = {} as QueueUrls;
  for (const [id, queue] of Object.entries(QUEUES) as [QueueId, (typeof QUEUES)[QueueId]][]) {
    const dlq = await client.send(new CreateQueueCommand({ QueueName: `${prefix}${queue.name}-dlq` }));
    const { Attributes } = await client.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }));
    const created = await client.send(
      new CreateQueueCommand({
        QueueName: `${prefix}${queue.name}`,
        Attributes: {
          VisibilityTimeout: String(visibilityTimeoutOf(id)),
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes?.QueueArn, maxReceiveCount: MAX_RECEIVE_COUNT }),
        },
      }),
    );
    urls[id] = created.QueueUrl!;
  }
  return urls;
}

/** The queue where failed asynchronous invocations are recorded (Lambda's on-failure destination on AWS). */
export async function createAsyncFailureQueue(client: SQSClient, prefix = ''): Promise<string> {
  return (await client.send(new CreateQueueCommand({ QueueName: `${prefix}${ASYNC_FAILURES.name}` }))).QueueUrl!;
}
