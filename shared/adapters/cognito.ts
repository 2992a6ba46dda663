import {
  AdminCreateUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
  RevokeTokenCommand,
  type AuthenticationResultType,
} from '@aws-sdk/client-cognito-identity-provider';
import type { IdentityProvider, SessionTokens, SignInOutcome, UserDirectory } from '../session/ports.js';
import type { SignInDirectory } from '../access/tenant-users.js';

/**
 * Cognito, the managers' identity provider. Sign-in, the new-password challenge, refresh and revocation are Cognito's
 * public operations (unsigned: the app client id is their credential; IAM has no part in them), so the functions
 * that call them hold no Cognito grant. The tenant a user belongs to is the Cognito attribute `custom:tenant_id`,
 * which only an administrator writes (the app client may read it, not write it); the scope stays in the table.
 */
export const TENANT_ATTRIBUTE = 'custom:tenant_id';

let client: CognitoIdentityProviderClient | undefined;
/** One client per container; locally AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER points it at the emulator. */
const cognito = () => (client ??= new CognitoIdentityProviderClient({}));

/** Cognito's refusals of a sign-in: the same answer for each, so that nobody learns whether an address has an account. */
const REFUSALS = new Set([
  'NotAuthorizedException',
  'UserNotFoundException',
  'UserNotConfirmedException',
  'PasswordResetRequiredException',
  // cognito-local answers a wrong password so; Cognito answers NotAuthorizedException.
  'InvalidPasswordException',
]);
const THROTTLES = new Set(['TooManyRequestsException', 'TooManyFailedAttemptsException', 'LimitExceededException']);

function tokensOf(result: AuthenticationResultType | undefined): SessionTokens | undefined {
  if (!result?.IdToken) return undefined;
  return { idToken: result.IdToken, refreshToken: result.RefreshToken, expiresInSeconds: result.ExpiresIn ?? 900 };
}

/** What a Cognito refusal means for the form: a refused sign-in, or a new password the pool's policy refuses. */
type Refusals = { refused: ReadonlySet<string>; weak?: ReadonlySet<string> };

async function authenticate(
  call: () => Promise<{ AuthenticationResult?: AuthenticationResultType; ChallengeName?: string; Session?: string }>,
  { refused, weak }: Refusals,
): Promise<SignInOutcome> {
  try {
    const answered = await call();
    const tokens = tokensOf(answered.AuthenticationResult);
    if (tokens) return { kind: 'signed-in', tokens };
    if (answered.ChallengeName === 'NEW_PASSWORD_REQUIRED' && answered.Session)
      return { kind: 'new-password', challenge: answered.Session };
    // Another challenge (MFA) is answered on Cognito's managed login, which this form does not replace.
    return { kind: 'refused' };
  } catch (error) {
    const name = (error as Error).name;
    if (THROTTLES.has(name)) return { kind: 'too-many' };
    if (weak?.has(name)) return { kind: 'weak-password' };
    if (refused.has(name)) return { kind: 'refused' };
    throw error;
  }
}

export function cognitoIdentityProvider(clientId: () => string): IdentityProvider {
  return {
    signIn: (username, password) =>
      authenticate(
        () =>
          cognito().send(
            new InitiateAuthCommand({
              ClientId: clientId(),
              AuthFlow: 'USER_PASSWORD_AUTH',
              AuthParameters: { USERNAME: username, PASSWORD: password },
            }),
          ),
        { refused: REFUSALS },
      ),
    setNewPassword: (username, challenge, newPassword) =>
      authenticate(
        () =>
          cognito().send(
            new RespondToAuthChallengeCommand({
              ClientId: clientId(),
              ChallengeName: 'NEW_PASSWORD_REQUIRED',
              Session: challenge,
              ChallengeResponses: { USERNAME: username, NEW_PASSWORD: newPassword },
            }),
          ),
        // Here an invalid password is one the policy refuses; an expired challenge is NotAuthorized.
        {
          refused: new Set(['NotAuthorizedException', 'CodeMismatchException', 'ExpiredCodeException']),
          weak: new Set(['InvalidPasswordException']),
        },
      ),
    async refresh(refreshToken) {
      try {
        const answered = await cognito().send(
          new InitiateAuthCommand({
            ClientId: clientId(),
            AuthFlow: 'REFRESH_TOKEN_AUTH',
            AuthParameters: { REFRESH_TOKEN: refreshToken },
          }),
        );
        return tokensOf(answered.AuthenticationResult);
      } catch (error) {
        if ((error as Error).name === 'NotAuthorizedException') return undefined;
        throw error;
      }
    },
    async revoke(refreshToken) {
      try {
        await cognito().send(new RevokeTokenCommand({ ClientId: clientId(), Token: refreshToken }));
      } catch (error) {
        // Already revoked or expired: signed out all the same.
        if ((error as Error).name !== 'NotAuthorizedException' && (error as Error).name !== 'UnsupportedTokenTypeException') throw error;
      }
    },
  };
}

/** The administrator's side: users created in the pool, bound to their tenant. */
export function cognitoUserDirectory(userPoolId: string): UserDirectory {
  return {
    async invite({ email, tenantId, temporaryPassword }) {
      try {
        await cognito().send(
          new AdminCreateUserCommand({
            UserPoolId: userPoolId,
            Username: email,
            UserAttributes: [
              { Name: 'email', Value: email },
              { Name: 'email_verified', Value: 'true' },
              { Name: TENANT_ATTRIBUTE, Value: String(tenantId) },
            ],
            ...(temporaryPassword
              ? { TemporaryPassword: temporaryPassword, MessageAction: 'SUPPRESS' as const }
              : { DesiredDeliveryMediums: ['EMAIL' as const] }),
          }),
        );
        return 'created';
      } catch (error) {
        if ((error as Error).name !== 'UsernameExistsException') throw error;
      }
      // The pool is the deployment's, one account per address: one bound to another tenant is not this tenant's.
      try {
        return (await tenantOf(userPoolId, email)) === String(tenantId) ? 'exists' : 'elsewhere';
      } catch (error) {
        // Removed since AdminCreateUser found it: not this tenant's either (asked again, it is invited afresh).
        if ((error as Error).name === 'UserNotFoundException') return 'elsewhere';
        throw error;
      }
    },
    async setPassword(email, password) {
      await cognito().send(
        new AdminSetUserPasswordCommand({ UserPoolId: userPoolId, Username: email, Password: password, Permanent: true }),
      );
    },
  };
}

/** A pool's id, from its token issuer (`https://cognito-idp.<region>.amazonaws.com/<pool id>`, locally the emulator's). */
export const userPoolIdOf = (issuer: string): string => new URL(issuer).pathname.split('/').filter(Boolean).at(-1) ?? '';

/** The tenant a sign-in user is bound to (its `custom:tenant_id`) and their status, read by the administrator. */
async function signInUser(userPoolId: string, email: string): Promise<{ tenant: string | undefined; status: string | undefined }> {
  const { UserAttributes = [], UserStatus } = await cognito().send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: email }));
  return { tenant: UserAttributes.find((attribute) => attribute.Name === TENANT_ATTRIBUTE)?.Value, status: UserStatus };
}
const tenantOf = async (userPoolId: string, email: string) => (await signInUser(userPoolId, email)).tenant;

/**
 * The tenant admin's side (the users routes): the sign-in user is made with the service's temporary password and
 * Cognito told to send nothing (the service e-mails the invitation through SES), and disabling a user makes Cognito
 * refuse their sign-in and their refresh token. A user without a Cognito account (an API user of a tenant file) has
 * nothing to enable or disable there.
 */
export function cognitoSignInDirectory(userPoolId: () => string): SignInDirectory {
  return {
    invite: (user) => cognitoUserDirectory(userPoolId()).invite(user),
    async renewTemporaryPassword({ email, tenantId, temporaryPassword }) {
      try {
        const { tenant, status } = await signInUser(userPoolId(), email);
        if (tenant !== String(tenantId)) return 'missing';
        if (status !== 'FORCE_CHANGE_PASSWORD') return 'signed-in';
      } catch (error) {
        if ((error as Error).name === 'UserNotFoundException') return 'missing';
        throw error;
      }
      await cognito().send(
        new AdminSetUserPasswordCommand({ UserPoolId: userPoolId(), Username: email, Password: temporaryPassword, Permanent: false }),
      );
      return 'renewed';
    },
    async setEnabled({ email, tenantId }, enabled) {
      const input = { UserPoolId: userPoolId(), Username: email };
      try {
        // The pool is the deployment's: an address another tenant invited first is that tenant's sign-in, whatever
        // user of the same address this tenant made since.
        if ((await tenantOf(input.UserPoolId, email)) !== String(tenantId)) return;
        await cognito().send(enabled ? new AdminEnableUserCommand(input) : new AdminDisableUserCommand(input));
      } catch (error) {
        if ((error as Error).name !== 'UserNotFoundException') throw error;
      }
    },
  };
}
