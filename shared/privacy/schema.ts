import * as v from 'valibot';
import { cpf } from '../customers/fields.js';
import { phone } from '../customers/phone.js';
import { email, externalCode, instant, wholeNumber } from '../schema.js';

export const PRIVACY_REQUEST_TYPES = ['export', 'erase'] as const;
export type PrivacyRequestType = (typeof PRIVACY_REQUEST_TYPES)[number];

const IDENTIFIERS = ['cpf', 'email', 'phone', 'client_id'] as const;

/** POST /public/privacy/requests: what the data subject asks, and how the tenant knows them (at least one identifier). */
export const PrivacyRequestBody = v.pipe(
  v.strictObject({
    type: v.picklist(PRIVACY_REQUEST_TYPES, `must be ${PRIVACY_REQUEST_TYPES.join(' or ')}`),
    cpf: v.optional(cpf),
    email: v.optional(email),
    phone: v.optional(phone),
    client_id: v.optional(externalCode),
  }),
  v.check((body) => IDENTIFIERS.some((field) => body[field] !== undefined), `send at least one of ${IDENTIFIERS.join(', ')}`),
);
export type PrivacyRequestInput = v.InferOutput<typeof PrivacyRequestBody>;
export type Identifiers = Pick<PrivacyRequestInput, (typeof IDENTIFIERS)[number]>;

export const PRIVACY_REQUEST_STATUSES = ['pending', 'done', 'failed'] as const;

/** A privacy request as the API shows it: the identifiers it was given are not shown back, nor kept once it is done. */
export const PrivacyRequestView = v.object({
  id: v.string(),
  type: v.picklist(PRIVACY_REQUEST_TYPES),
  status: v.picklist(PRIVACY_REQUEST_STATUSES),
  subjects: v.array(wholeNumber),
  requested_by: v.string(),
  created_at: instant,
  finished_at: v.nullable(instant),
  /** Until when GET …/export answers (exports only, once done). */
  export_expires_at: v.nullable(instant),
  errors: v.array(v.object({ path: v.string(), message: v.string() })),
});
export type PrivacyRequestView = v.InferOutput<typeof PrivacyRequestView>;

export const PrivacyRequestPath = v.strictObject({
  id: v.pipe(v.string(), v.regex(/^pr_[A-Za-z0-9_-]{22}$/, 'is not a privacy request id')),
});

/** The export document: each customer found, with everything the service keeps about them. */
export const ExportDocument = v.object({
  request: PrivacyRequestView,
  generated_at: instant,
  customers: v.array(
    v.object({
      customer: v.record(v.string(), v.unknown()),
      transactions: v.array(v.record(v.string(), v.unknown())),
      /** The cases its answers opened, with the managers' notes about them. */
      cases: v.array(v.record(v.string(), v.unknown())),
      privacy_requests: v.array(v.record(v.string(), v.unknown())),
      transactions_truncated: v.boolean(),
    }),
  ),
});
export type ExportDocument = v.InferOutput<typeof ExportDocument>;

/** The message the privacy queue carries: which request to work on (its identifiers stay in the table). */
export const PrivacyMessage = v.object({
  version: v.literal(1),
  tenantId: v.number(),
  requestId: v.string(),
  /** An erasure's second pass, after which it is done (shared/privacy/service.ts, ERASURE_RECHECK_SECONDS). */
  recheck: v.optional(v.literal(true)),
});
export type PrivacyMessage = v.InferOutput<typeof PrivacyMessage>;
