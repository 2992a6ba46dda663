import { ConfigDocument } from '../tenants/config-schema.js';

/** The configuration the admin API answers: the tenant file's shape (ConfigDocument), without id, users and keys. */
export const AdminConfigBody = ConfigDocument;
