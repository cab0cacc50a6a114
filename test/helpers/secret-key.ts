import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeKeyFile } from '../../src/store/secrets/key-file.js';
import { keyLine, secretKeyOf } from '../../src/store/secrets/cipher.js';
import type { SecretKeySource } from '../../src/store/secrets/keyring.js';

/**
 * The key of the tests' sensitive values: fixed, so that every store and every serve of one
 * test (several instances on one PostgreSQL database) share it.
 */
export const TEST_SECRET_KEY = secretKeyOf(Buffer.alloc(32, 7));
export const TEST_SECRET_KEY_LINE = keyLine(TEST_SECRET_KEY);
export const TEST_KEY_SOURCE: SecretKeySource = { kind: 'memory', keys: [TEST_SECRET_KEY] };

let keyFile: string | undefined;
/** A key file holding the tests' key (one per test process, removed at exit), for a serve started in-process on PostgreSQL. */
export function testKeyFile(): string {
  if (keyFile) return keyFile;
  const dir = mkdtempSync(join(tmpdir(), 'berth-test-key-'));
  keyFile = join(dir, 'test.key');
  writeKeyFile(keyFile, [TEST_SECRET_KEY]);
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return keyFile;
}
