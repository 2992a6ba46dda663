import type {
  ptBRAdmin,
  ptBRAdminBrand,
  ptBRAdminGeneral,
  ptBRAdminJourneys,
  ptBRAdminRegions,
  ptBRAdminKeys,
  ptBRAdminThemes,
  ptBRAdminInStore,
  ptBRAdminUsers,
  ptBRAdminWebhooks,
  ptBRAlerts,
  ptBRCustomer,
  ptBRWorkspace,
} from './pt-BR.js';

/**
 * The catalogues' shapes, from pt-BR (the reference): each other locale is typed by them, so a missing word fails to
 * compile. A module of their own, so that the locales and the translators never import each other.
 */

/** The customer's words (survey, recovery and unsubscribe pages, the survey messages), the workspace's, the alerts'. */
export type CustomerKey = keyof typeof ptBRCustomer;
export type WorkspaceKey = keyof typeof ptBRWorkspace;
export type AlertKey = keyof typeof ptBRAlerts;
/** The admin pages' words: the ones every admin page shares, and each page's own. */
export type AdminKey = keyof typeof ptBRAdmin;
export type AdminBrandKey = keyof typeof ptBRAdminBrand;
export type AdminGeneralKey = keyof typeof ptBRAdminGeneral;
export type AdminJourneysKey = keyof typeof ptBRAdminJourneys;
export type AdminRegionsKey = keyof typeof ptBRAdminRegions;
export type AdminKeysKey = keyof typeof ptBRAdminKeys;
export type AdminThemesKey = keyof typeof ptBRAdminThemes;
export type AdminInStoreKey = keyof typeof ptBRAdminInStore;
export type AdminUsersKey = keyof typeof ptBRAdminUsers;
export type AdminWebhooksKey = keyof typeof ptBRAdminWebhooks;
export type AdminPageKey =
  | AdminBrandKey
  | AdminGeneralKey
  | AdminJourneysKey
  | AdminRegionsKey
  | AdminKeysKey
  | AdminThemesKey
  | AdminUsersKey
  | AdminWebhooksKey
  | AdminInStoreKey;
export type MessageKey = CustomerKey | WorkspaceKey | AlertKey | AdminKey | AdminPageKey;

export type CustomerCatalogue = Record<CustomerKey, string>;
export type WorkspaceCatalogue = Record<WorkspaceKey, string>;
export type AlertCatalogue = Record<AlertKey, string>;
export type AdminCatalogue = Record<AdminKey, string>;
export type AdminBrandCatalogue = Record<AdminBrandKey, string>;
export type AdminGeneralCatalogue = Record<AdminGeneralKey, string>;
export type AdminJourneysCatalogue = Record<AdminJourneysKey, string>;
export type AdminRegionsCatalogue = Record<AdminRegionsKey, string>;
export type AdminKeysCatalogue = Record<AdminKeysKey, string>;
export type AdminThemesCatalogue = Record<AdminThemesKey, string>;
export type AdminInStoreCatalogue = Record<AdminInStoreKey, string>;
export type AdminUsersCatalogue = Record<AdminUsersKey, string>;
export type AdminWebhooksCatalogue = Record<AdminWebhooksKey, string>;
export type Catalogue = Record<MessageKey, string>;
