import * as v from 'valibot';
import { contrastProblem, HEX_COLOUR, normaliseColour } from './contrast.js';
import { nameField as name } from '../fields.js';

/** A brand colour: `#rrggbb` or `#rgb`, stored as `#rrggbb`, refused when it fails WCAG AA on the page (contrast.ts). */
const brandColour = v.pipe(
  v.string('must be a string'),
  v.regex(HEX_COLOUR, 'must be a colour such as #0b5cad'),
  v.transform(normaliseColour),
  v.rawCheck(({ dataset, addIssue }) => {
    const problem = dataset.typed ? contrastProblem(dataset.value) : undefined;
    if (problem) addIssue({ message: problem });
  }),
);

/**
 * What the customer sees of the tenant (shared/brand/brand.ts): its display name (the tenant's name when absent),
 * primary colour, logo and the survey e-mail's sender name (`delivery.email.name`, else the display name, when absent).
 */
export const BrandConfig = v.strictObject({
  name: v.optional(name(100)),
  colour: v.optional(brandColour),
  /** A PNG, JPEG or WebP file of at most MAX_LOGO_BYTES, its path relative to the tenant file; `apply` uploads it. */
  logo: v.optional(
    v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(1000, 'must be at most 1000 characters')),
  ),
  senderName: v.optional(name(100)),
});
export type BrandConfig = v.InferOutput<typeof BrandConfig>;
