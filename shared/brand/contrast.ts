/**
 * WCAG 2.x contrast, for a tenant's brand colour. The colour is used as text and borders on the survey page and as a
 * button behind white text, so it must reach AA for normal text (4.5:1) against every background it sits on.
 */

/** WCAG AA's minimum contrast for normal text. */
export const AA_CONTRAST = 4.5;

/**
 * The backgrounds a brand colour sits on: the white of the page's card, of the e-mail, and of a button's text; the
 * light grey of the page around the card. The darkest of them decides.
 */
export const BRAND_BACKGROUNDS = ['#ffffff', '#f3f4f6'] as const;

/** A colour as the tenant file writes it: `#rrggbb` or `#rgb`. */
export const HEX_COLOUR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** `#rgb` or `#rrggbb` as lowercase `#rrggbb`. */
export function normaliseColour(colour: string): string {
  const hex = colour.slice(1).toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex}`;
}

/** Relative luminance, WCAG 2.x: each sRGB channel linearised, then weighted 0.2126 R + 0.7152 G + 0.0722 B. */
export function relativeLuminance(colour: string): number {
  const hex = normaliseColour(colour).slice(1);
  const [r, g, b] = [0, 2, 4].map((at) => {
    const channel = parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours, (L1 + 0.05) / (L2 + 0.05) with L1 the lighter: from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * Why a brand colour fails AA, naming the ratio found, the background it was measured against and the ratio needed;
 * undefined when it passes on every background. Ratios are rounded down, so a shown 4.49 never reads as a pass.
 */
export function contrastProblem(colour: string): string | undefined {
  const [worst] = BRAND_BACKGROUNDS.map((background) => ({ background, ratio: contrastRatio(colour, background) })).sort(
    (x, y) => x.ratio - y.ratio,
  );
  if (!worst || worst.ratio >= AA_CONTRAST) return undefined;
  const found = Math.floor(worst.ratio * 100) / 100;
  return (
    `has a contrast ratio of ${found}:1 against the page background ${worst.background} (and with white text on it as a ` +
    `button); WCAG AA needs at least ${AA_CONTRAST}:1: choose a darker colour`
  );
}
