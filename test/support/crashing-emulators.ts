import { startCognitoLocal } from '../../infra/local/cognito.js';
import { startDynamoDbLocal } from '../../infra/local/services.js';

/** Starts the two emulator processes the local stack runs, prints their endpoints, then fails as a bug would. */
const dynamo = await startDynamoDbLocal({ port: 0 });
const cognito = await startCognitoLocal({ port: 0 });
console.log(JSON.stringify([dynamo.endpoint, cognito.endpoint]));
setTimeout(() => {
  throw new Error('a failure nothing catches');
}, 0);
