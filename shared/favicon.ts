import { raw } from './html.js';

/**
 * The icon every page shows (the reference, the results page, the survey pages), inline: a page without one makes
 * the browser ask for /favicon.ico, which API Gateway answers 404 (an error in the console). Base64, so that the page
 * names no outside address (the SVG namespace is one); the pages' policies admit `img-src data:`.
 */
const SVG =
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><rect width='32' height='32' rx='7' fill='#1b5e9e'/>" +
  "<path d='M8 17l5 5 11-12' fill='none' stroke='#fff' stroke-width='3.5' stroke-linecap='round' stroke-linejoin='round'/></svg>";

export const FAVICON_LINK = raw(
  `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml;base64,${Buffer.from(SVG).toString('base64')}">`,
);
