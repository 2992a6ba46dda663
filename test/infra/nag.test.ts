import { Validations } from 'aws-cdk-lib';
import { testApp } from '../support/cdk-app.js';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { surveyService, type SurveyServiceProps } from '../../infra/stack.js';

/** Bundling is skipped here, so the reference directories are never read. */
const UNBUNDLED = { public: 'unbundled', chatbot: 'unbundled' };

/**
 * cdk-nag's AwsSolutions and Serverless packs on the synthesized stacks: any finding without a written reason
 * (infra/constructs/acknowledgments.ts) fails the synthesis, and so this test.
 */
function synthesizeWithNag(props: Partial<SurveyServiceProps> = {}): string | undefined {
  const app = testApp();
  // Every stack of the deployment: the data stack, the service stack and its nested stacks.
  surveyService(app, 'Nag', {
    stage: 'test',
    logRetention: RetentionDays.ONE_MONTH,
    authorizerCacheTtlSeconds: 300,
    references: UNBUNDLED,
    ...props,
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
  try {
    app.synth();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('cdk-nag', () => {
  it('finds nothing unacknowledged in the stack, with and without narrowed sender identities', { timeout: 300_000 }, () => {
    expect(synthesizeWithNag()).toBeUndefined();
    expect(
      synthesizeWithNag({
        senders: {
          ses: ['arn:aws:ses:us-east-1:111122223333:identity/loja.example'],
          sms: ['arn:aws:sms-voice:us-east-1:111122223333:phone-number/phone-1'],
          whatsapp: ['arn:aws:social-messaging:us-east-1:111122223333:phone-number-id/pn-1'],
        },
        consumerMaxConcurrency: 5,
      }),
    ).toBeUndefined();
  });
});
