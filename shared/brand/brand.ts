import { colour as checkedColour, safeUrl, type Colour, type SafeUrl } from '../html.js';
import type { BrandSettings } from './ports.js';

/** What a customer sees of the tenant: on the survey pages, in the e-mail and as the e-mail's sender. */
export interface Brand {
  /** The name the customer knows the tenant by. */
  name: string;
  /** The primary colour, `#rrggbb`, which passed WCAG AA against the page (contrast.ts). */
  colour: string;
  /** The logo, served by the public API from its content-addressed path; absent when the tenant has none. */
  logoUrl?: string;
  /** The display name of the survey e-mail's From. */
  senderName: string;
}

/** What the brand is made of in a tenant's settings: the brand as stored, and the survey e-mail's sender. */
export interface BrandSource {
  /** Absent for a tenant created before brands. */
  brand?: BrandSettings | undefined;
  delivery: { email?: { from: string; name?: string | undefined } | undefined };
}

/** The colour of a tenant that sets none: the survey page's blue, 6.06:1 against its grey background (more on white). */
export const DEFAULT_BRAND_COLOUR = '#0b5cad';

/** The route that serves a logo, and the path of one logo's object under the public API's base URL (content-addressed). */
export const LOGO_ROUTE = '/brand/logos/{file}';
export const logoPath = (file: string) => LOGO_ROUTE.replace('{file}', file);

/**
 * The tenant's brand from its settings, with defaults: its display name is the tenant's name (stored with the brand
 * when the tenant is created or applied, so `tenantName` is only for settings made without a repository), the colour
 * DEFAULT_BRAND_COLOUR, the sender's name the e-mail sender's configured name or else the display name. `baseUrl` is
 * the public API's (the survey links' base), which serves the logo: an e-mail needs it, a page of the same API may
 * leave it out for a relative URL.
 */
export function brandOf(
  settings: BrandSource,
  { tenantName, baseUrl = '' }: { tenantName?: string | undefined; baseUrl?: string | undefined } = {},
): Brand {
  const brand: Partial<BrandSettings> = settings.brand ?? {};
  const name = brand.name ?? tenantName ?? '';
  return {
    name,
    colour: brand.colour ?? DEFAULT_BRAND_COLOUR,
    ...(brand.logo ? { logoUrl: `${baseUrl.replace(/\/+$/, '')}${logoPath(brand.logo.file)}` } : {}),
    senderName: brand.senderName ?? settings.delivery.email?.name ?? name,
  };
}

/** The brand colour an e-mail paints with: #rrggbb only (the brand's rules check its contrast where it is set), else the default blue. */
export const brandColour = (colour: string | undefined): Colour => checkedColour(colour) ?? checkedColour('#0b5cad')!;

/** A logo a page or an e-mail may load: an https address (http only on this machine), with its origin for the policy. */
export function safeLogo(url: string | undefined): { url: SafeUrl; origin: string } | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    const local = parsed.protocol === 'http:' && ['localhost', '127.0.0.1'].includes(parsed.hostname);
    return parsed.protocol === 'https:' || local ? { url: safeUrl(parsed.href)!, origin: parsed.origin } : undefined;
  } catch {
    return undefined;
  }
}
