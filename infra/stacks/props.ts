import type { StackProps } from 'aws-cdk-lib';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Alarms } from '../constructs/alarms.js';
import type { EmailEvents } from '../constructs/email-events.js';
import type { FunctionBinding } from '../constructs/function-binding.js';
import type { CustomDomain, Throttle } from '../constructs/http-api.js';
import type { ApiName } from '../routes.js';

export interface SurveyServiceProps extends StackProps {
  stage: string;
  logRetention: RetentionDays;
  authorizerCacheTtlSeconds: number;
  /** Where alarms are e-mailed (optional: the SNS topic exists either way). */
  alarmEmail?: string | undefined;
  /**
   * Caps how many invocations each queue consumer's event source runs at once (2 to 1000), and so the write
   * pressure on the table; unset: no cap. The event source's own limit: messages wait in the queue, never throttled
   * into the dead-letter queue as reserved concurrency would.
   */
  consumerMaxConcurrency?: number | undefined;
  /**
   * The identities the survey dispatcher may send from: SES identity ARNs (verified domains or addresses), SMS
   * origination identities (phone number or sender id ARNs) and WhatsApp phone number ids' ARNs. Unset: any of this
   * account's in the region (narrow it in production with the context settings of the README).
   */
  senders?: { ses?: string[]; sms?: string[]; whatsapp?: string[] } | undefined;
  /**
   * Requests per second (steady, burst) each API's stage admits on every route, and on the routes that need no key
   * (health and the survey pages), which get less. Over it, API Gateway answers 429 before any function runs.
   */
  throttle?: Partial<Throttle> | undefined;
  /**
   * The browser origins (`https://app.example.com`) each API admits across origins (CORS, answered by API Gateway
   * itself); unset or empty: none, so that no web page elsewhere can call the API from a visitor's browser.
   */
  corsOrigins?: Partial<Record<ApiName, readonly string[]>> | undefined;
  /** Each API's reference directory (writeReference), bundled with the function that serves /docs and /openapi.json. */
  references: Record<ApiName, string>;
  /**
   * The tenant-facing domain of the public API (`pesquisa.example.com`) and the ARN of the deployer's ACM certificate
   * for it, in the stack's region: the API gets an API Gateway domain name mapped to its stage, and survey links use
   * `https://<domainName>`. Unset: links use the API's execute-api URL.
   */
  customDomain?: CustomDomain | undefined;
}

/** What the nested stacks share: the settings, the alarms, the SES events topic, and the binding of their functions. */
export interface Shared {
  props: SurveyServiceProps;
  alarms: Alarms;
  emailEvents: EmailEvents;
  binding: FunctionBinding;
}
