/** The languages the service speaks to customers; a customer, journey or tenant picks one of these. */
export const LOCALES = ['pt-BR', 'es', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'pt-BR';
