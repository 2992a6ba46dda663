import { fileURLToPath } from 'node:url';
import { referenceHandler } from '../../shared/http/reference.js';

/** GET /openapi.json, /docs and its assets, from the reference/ directory the deployment puts beside this bundle. */
export const handler = referenceHandler(fileURLToPath(new URL('./reference/', import.meta.url)));
