import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { projectionOf, TABLE } from '../../shared/table.js';
import type { SecretId } from '../grants.js';

/**
 * The table (as shared/table.ts declares it) and the three secrets: retained, what outlives every deployment. Built
 * into `scope`, the data stack (see infra/stack.ts on why a part keeps its stack's scope).
 */
export class Storage {
  readonly table: Table;
  readonly secrets: Record<SecretId, Secret>;

  constructor(scope: Construct) {
    this.table = new Table(scope, 'Table', {
      partitionKey: { name: TABLE.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TABLE.ttlAttribute,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of TABLE.indexes) {
      const projection = projectionOf(index);
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType[projection.type],
        ...(projection.type === 'INCLUDE' ? { nonKeyAttributes: [...projection.attributes] } : {}),
      });
    }
    const secret = (secretId: string, description: string) =>
      new Secret(scope, secretId, {
        description,
        generateSecretString: { passwordLength: 48, excludePunctuation: true },
        // A new secret would invalidate every link, request id and cursor in flight.
        removalPolicy: RemovalPolicy.RETAIN,
      });
    this.secrets = {
      // Signs v2 request ids; resolved into the two functions' environment at deploy time.
      requestIds: secret('RequestIdSecret', 'Signs the request ids of POST /v2/transactions'),
      // Seals list cursors, which carry table keys.
      cursors: secret('CursorSecret', 'Seals the cursors of paged lists'),
      // Signs survey links and derives each tenant's webhook secret.
      surveyLinks: secret('SurveySecret', "Signs survey links and derives each tenant's chatbot webhook secret"),
    };
  }
}
