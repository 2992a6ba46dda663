import { inject } from 'vitest';
import { SECRET_NAMES } from '../../shared/config.js';
import { loadSecrets } from '../../shared/adapters/secrets.js';

// Functions read their configuration from the environment at load, as in Lambda: set it before any test imports one.
Object.assign(process.env, inject('stackEnv'));

// Tests sign survey links and request ids as the deployment does: they read the secrets as its operator would.
await loadSecrets(...SECRET_NAMES);
