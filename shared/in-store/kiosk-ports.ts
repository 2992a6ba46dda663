import type { KioskView } from './kiosk-schema.js';

/** A registered kiosk as stored: its view, the journey's id it answers, and its token's hash (never the token). */
export interface KioskRecord extends KioskView {
  journeyId: number;
  tokenHash: string;
}

export interface KioskStore {
  /** Keeps a new kiosk (its id is fresh: 64 random bits). */
  insert(tenantId: number, kiosk: KioskRecord): Promise<void>;
  find(tenantId: number, id: string): Promise<KioskRecord | undefined>;
  /** The tenant's kiosks, oldest first: one Query of their partition. */
  list(tenantId: number): Promise<KioskRecord[]>;
  /** Marks it revoked at `at` unless it was already (then answers the record as it is); undefined: no such kiosk. */
  revoke(tenantId: number, id: string, at: string): Promise<KioskRecord | undefined>;
}
