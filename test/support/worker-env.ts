import { inject } from 'vitest';

// Functions read their configuration from the environment at load, as in Lambda: set it before any test imports one.
Object.assign(process.env, inject('stackEnv'));
