import { writeFileSync } from 'node:fs';
import { PHONE_METADATA_FILE, phoneMetadataText } from './phone-metadata.js';

/** `npm run phone-metadata`: rewrites the reduced phone metadata from the installed libphonenumber-js. */
writeFileSync(PHONE_METADATA_FILE, phoneMetadataText());
console.log(PHONE_METADATA_FILE.pathname);
