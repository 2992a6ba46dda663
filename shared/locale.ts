/** The languages the service speaks to customers; a customer, journey or tenant picks one of these. */
export const LOCALES = ['pt-BR', 'es', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'pt-BR';

/** The time zone (IANA) of a tenant that names none: its people read times in it, its working and quiet hours count in it. */
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';
