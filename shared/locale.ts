/** The languages the service speaks to customers; a customer, journey or tenant picks one of these. */
export const LOCALES = ['pt-BR', 'es', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'pt-BR';

/** The time zone (IANA) of a tenant that names none. */
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

/**
 * The tenant's time zone: the one its people read times in, and its working and quiet hours count in unless they name
 * their own.
 */
export const timeZoneOf = (settings: { timeZone?: string | undefined }): string => settings.timeZone ?? DEFAULT_TIME_ZONE;
