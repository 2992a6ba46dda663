import {
  APP_ADMIN_BRAND_PATH,
  APP_ADMIN_JOURNEYS_PATH,
  APP_ADMIN_KEYS_PATH,
  APP_ADMIN_USERS_PATH,
  APP_ADMIN_WEBHOOKS_PATH,
} from '../session/paths.js';
import { adminRefusal, type AdminArea, type Principal } from '../access/capabilities.js';

/** The admin pages, in the order their navigation shows them: what each administers, and its label's word (admin-text.ts). */
export const ADMIN_SECTIONS: readonly { path: string; area: AdminArea; label: 'journeys' | 'webhooks' | 'users' | 'keys' | 'brand' }[] = [
  { path: APP_ADMIN_JOURNEYS_PATH, area: 'tenant', label: 'journeys' },
  { path: APP_ADMIN_WEBHOOKS_PATH, area: 'tenant', label: 'webhooks' },
  { path: APP_ADMIN_USERS_PATH, area: 'users', label: 'users' },
  { path: APP_ADMIN_KEYS_PATH, area: 'tenant', label: 'keys' },
  { path: APP_ADMIN_BRAND_PATH, area: 'tenant', label: 'brand' },
];

/** The admin pages the rule lets a user open: the only ones any page offers them. */
export const openAdminSections = (user: Principal) => ADMIN_SECTIONS.filter((section) => adminRefusal(user, section.area) === undefined);

/** The admin page the navigation's Admin link opens for a user: the first they may open (none: no link). */
export const adminHome = (user: Principal): string | undefined => openAdminSections(user)[0]?.path;
