import { keyLine, secretKeyOf } from '../../src/store/secrets/cipher.js';
import type { SecretKeySource } from '../../src/store/secrets/keyring.js';

/**
 * The key of the tests' sensitive values: fixed, so that every store and every serve of one
 * test (several instances on one PostgreSQL database) share it.
 */
export const TEST_SECRET_KEY = secretKeyOf(Buffer.alloc(32, 7));
export const TEST_SECRET_KEY_LINE = keyLine(TEST_SECRET_KEY);
export const TEST_KEY_SOURCE: SecretKeySource = { kind: 'memory', keys: [TEST_SECRET_KEY] };
