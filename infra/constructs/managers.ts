import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AccountRecovery, ClientAttributes, Mfa, StringAttribute, UserPool, type UserPoolClient } from 'aws-cdk-lib/aws-cognito';
import type { Construct } from 'constructs';
import { acknowledgeUserPool } from './acknowledgments.js';
import { PASSWORD_POLICY } from '../../shared/access/invitation.js';

/**
 * The managers who sign in to the workspace: one Cognito user per tenant user, bound to its tenant by an attribute
 * only an administrator writes; their scope stays in the table. Retained: the users outlive every deployment. Built
 * into `scope`, the data stack (see infra/stack.ts on why a part keeps its stack's scope).
 */
export class Managers {
  readonly userPool: UserPool;
  readonly workspaceClient: UserPoolClient;

  constructor(scope: Construct) {
    this.userPool = new UserPool(scope, 'Managers', {
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      autoVerify: { email: true },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      // The invitations' temporary passwords are made to meet it (shared/access/invitation.ts).
      passwordPolicy: PASSWORD_POLICY,
      customAttributes: { tenant_id: new StringAttribute({ minLen: 1, maxLen: 10, mutable: false }) },
      // Only the operator's first manager (`npm run admin -- create-user` on AWS) gets Cognito's own invitation: the
      // users routes and page tell Cognito to send nothing and e-mail theirs through SES.
      userInvitation: {
        emailSubject: 'Seu acesso ao painel de satisfação',
        emailBody: 'Olá! Seu usuário é {username} e sua senha temporária é {####}. Ao entrar, escolha uma senha sua.',
      },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // The workspace signs in through the service (USER_PASSWORD_AUTH over TLS to Cognito, never from the page); a
    // tenant's own SAML or OIDC provider is added to this pool and client later, without code changes.
    this.workspaceClient = this.userPool.addClient('Workspace', {
      authFlows: { userPassword: true },
      generateSecret: false,
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      idTokenValidity: Duration.minutes(15),
      accessTokenValidity: Duration.minutes(15),
      refreshTokenValidity: Duration.days(30),
      readAttributes: new ClientAttributes().withStandardAttributes({ email: true, emailVerified: true }).withCustomAttributes('tenant_id'),
      writeAttributes: new ClientAttributes(),
    });
    acknowledgeUserPool(this.userPool);
  }
}
