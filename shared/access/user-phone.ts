import * as v from 'valibot';
import { phone } from '../customers/phone.js';
import { NewUserBody, UserPatchFields } from './tenant-users.js';

/**
 * The users API's bodies, with the manager's mobile for the case alert on WhatsApp: normalised to E.164 (+55 assumed)
 * as the tenant file's is. The phone rules (libphonenumber's metadata) are large, so they live here, loaded only by
 * the functions that take a phone (POST and PATCH /public/admin/users, the users page's post), not by every user of
 * shared/access/tenant-users.ts.
 * A wrong phone is named by its field, never echoed.
 */
export const NewUserApiBody = v.strictObject({ ...NewUserBody.entries, phone: v.optional(phone) });
export type NewUserApiBody = v.InferOutput<typeof NewUserApiBody>;

/** PATCH /public/admin/users/{email}: scope, role, disabled, phone (null removes it); at least one. */
export const UserPatchApiBody = v.pipe(
  v.strictObject({ ...UserPatchFields.entries, phone: v.optional(v.nullable(phone)) }),
  v.check((patch) => Object.keys(patch).length > 0, 'must change at least one of scope, role, disabled, phone'),
);
export type UserPatchApiBody = v.InferOutput<typeof UserPatchApiBody>;
