import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * The encryption of sensitive values at rest: AES-256-GCM (Node's crypto), a fresh 96-bit nonce
 * per value. A stored value reads `v1:<key id>:<base64 of nonce, ciphertext and tag>`: the version
 * says how to read the rest, the key id which key sealed it (so that a rotation, and a wrong key,
 * can tell keys apart without trying them). The additional data binds the ciphertext to its version,
 * key id and place (table and row id): moved to another row, it no longer opens. No secret ever
 * enters a message.
 */

export const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';
/** How a key is written in a key file or in BERTH_SECRET_KEY: a prefix that names its kind and version. */
const KEY_PREFIX = 'berth-secret-key-v1:';

export interface SecretKey {
  /** 16 hex digits of a hash of the key: names it in the database and in messages, reveals nothing of it. */
  id: string;
  bytes: Buffer;
}

export function secretKeyOf(bytes: Buffer): SecretKey {
  const id = createHash('sha256').update('berth secret key id\n').update(bytes).digest('hex').slice(0, 16);
  return { id, bytes };
}

export const newSecretKey = (): SecretKey => secretKeyOf(randomBytes(KEY_BYTES));

/** A key as a line of text (key files, BERTH_SECRET_KEY). */
export const keyLine = (key: SecretKey): string => `${KEY_PREFIX}${key.bytes.toString('base64')}`;

/**
 * The keys written in `text` (a key file, or BERTH_SECRET_KEY): one per line, blank lines and
 * `#` comments ignored. Throws an Error naming `where` and the line number, never the line.
 */
export function parseKeys(text: string, where: string): SecretKey[] {
  const keys: SecretKey[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const bytes = line.startsWith(KEY_PREFIX) ? Buffer.from(line.slice(KEY_PREFIX.length), 'base64') : null;
    if (!bytes || bytes.length !== KEY_BYTES || bytes.toString('base64') !== line.slice(KEY_PREFIX.length))
      throw new Error(
        `${where}, line ${i + 1}: not a berth secret key (expected ${KEY_PREFIX} and ${KEY_BYTES} bytes in base64)`,
      );
    keys.push(secretKeyOf(bytes));
  }
  if (keys.length === 0) throw new Error(`${where} holds no key`);
  return keys;
}

const additionalData = (keyId: string, place: string) =>
  Buffer.from(`berth sealed value ${VERSION}\n${keyId}\n${place}`);

/** Seals `clear` with `key` for `place` (e.g. `workspace_variables/var-…`). */
export function seal(key: SecretKey, clear: string, place: string): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.bytes, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(additionalData(key.id, place));
  const body = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final()]);
  return `${VERSION}:${key.id}:${Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64')}`;
}

/** The id of the key that sealed `sealed`, or null when it is not a sealed value of a version berth reads. */
export function sealedKeyId(sealed: string): string | null {
  const m = /^v1:([0-9a-f]{16}):/.exec(sealed);
  return m ? m[1] : null;
}

/**
 * The value `sealed` holds, opened with `key` (the one its key id names) for `place`; null when
 * it does not open: another key of the same id (never, in practice), another place, or altered bytes.
 */
export function open(key: SecretKey, sealed: string, place: string): string | null {
  if (sealedKeyId(sealed) !== key.id) return null;
  const data = Buffer.from(sealed.slice(`${VERSION}:${key.id}:`.length), 'base64');
  if (data.length < NONCE_BYTES + TAG_BYTES) return null;
  const decipher = createDecipheriv('aes-256-gcm', key.bytes, data.subarray(0, NONCE_BYTES), {
    authTagLength: TAG_BYTES,
  });
  decipher.setAAD(additionalData(key.id, place));
  decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
  try {
    return Buffer.concat([
      decipher.update(data.subarray(NONCE_BYTES, data.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    return null;
  }
}
