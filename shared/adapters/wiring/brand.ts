import { ENV, requireEnvs } from '../../config.js';
import { logoStore } from '../logo-store.js';
import { readLogo } from '../../tenants/logo.js';

// The logo route reads the logo bucket: without its name, the cold start fails.
requireEnvs(ENV.logoBucket);

/** A stored logo by its object name, or undefined. */
export const getLogo = (file: string) => readLogo(file, logoStore);
