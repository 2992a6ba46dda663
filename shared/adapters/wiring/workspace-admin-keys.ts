import { adminKeysPage } from '../../workspace/admin-keys-page.js';
import { spendShownOnce } from '../shown-once.js';
import { shownOnceSealer } from './sealers.js';
import { issueKey, listKeys, revokeKey, rotateKey } from './tenant-keys.js';
import { tenantSettings } from './tenant-settings.js';

/** The tenant admins' keys page over the keys service of `/public/admin/keys`; a new key shown once, sealed. */
export const { showKeys, saveKeys } = adminKeysPage({
  settings: tenantSettings,
  issueKey,
  listKeys,
  revokeKey,
  rotateKey,
  shownOnce: { sealer: shownOnceSealer, spend: spendShownOnce },
});
