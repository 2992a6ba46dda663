/**
 * The local stack's ports, each from its variable or its default: `npm start` listens on them and `npm run admin`
 * talks to them, so both read them here (docs/local-development.md). A shell that starts a second stack on other
 * ports exports the same variables for the admin command.
 */
export const LOCAL_PORTS = {
  PORT: 3000,
  CHATBOT_PORT: 3001,
  DYNAMODB_PORT: 8000,
  SQS_PORT: 9324,
  SES_PORT: 8005,
  OUTBOX_PORT: 8006,
  S3_PORT: 8007,
  COMPREHEND_PORT: 8008,
  COGNITO_PORT: 9229,
} as const;
export type LocalPortName = keyof typeof LOCAL_PORTS;

/** The local table's name: `TABLE_NAME`, as `npm start` names it, or its default. */
export const LOCAL_TABLE_NAME = 'survey-service';

export class LocalPortError extends Error {}

/** A port of the local stack from the environment; an invalid value is refused, naming the variable. */
export function localPort(name: LocalPortName, env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env[name] ?? LOCAL_PORTS[name]);
  if (!Number.isInteger(value) || value < 0 || value > 65535)
    throw new LocalPortError(`${name} must be a port number, got "${env[name]}".`);
  return value;
}
