import {
  APP_ADMIN_BRAND_PATH,
  APP_ADMIN_GENERAL_PATH,
  APP_ADMIN_JOURNEYS_PATH,
  APP_ADMIN_KEYS_PATH,
  APP_ADMIN_QR_PATH,
  APP_ADMIN_REGIONS_PATH,
  APP_ADMIN_THEMES_PATH,
  APP_ADMIN_USERS_PATH,
  APP_ADMIN_WEBHOOKS_PATH,
} from '../session/paths.js';
import type { AdminKey } from '../i18n/catalogue.js';
import { adminRefusal, type AdminArea, type Principal } from '../access/capabilities.js';

/** The admin pages, in the order their navigation shows them: what each administers, and its label's word. */
export const ADMIN_SECTIONS: readonly { path: string; area: AdminArea; label: AdminKey }[] = [
  { path: APP_ADMIN_GENERAL_PATH, area: 'tenant', label: 'admin.general' },
  { path: APP_ADMIN_JOURNEYS_PATH, area: 'tenant', label: 'admin.journeys' },
  { path: APP_ADMIN_REGIONS_PATH, area: 'tenant', label: 'admin.regions' },
  { path: APP_ADMIN_THEMES_PATH, area: 'tenant', label: 'admin.themes' },
  { path: APP_ADMIN_WEBHOOKS_PATH, area: 'tenant', label: 'admin.webhooks' },
  { path: APP_ADMIN_USERS_PATH, area: 'users', label: 'admin.users' },
  { path: APP_ADMIN_KEYS_PATH, area: 'tenant', label: 'admin.keys' },
  { path: APP_ADMIN_BRAND_PATH, area: 'tenant', label: 'admin.brand' },
  { path: APP_ADMIN_QR_PATH, area: 'tenant', label: 'admin.inStore' },
];

/** The admin pages the rule lets a user open: the only ones any page offers them. */
export const openAdminSections = (user: Principal) => ADMIN_SECTIONS.filter((section) => adminRefusal(user, section.area) === undefined);

/** The admin page the navigation's Admin link opens for a user: the first they may open (none: no link). */
export const adminHome = (user: Principal): string | undefined => openAdminSections(user)[0]?.path;
