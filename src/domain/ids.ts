import { randomBytes } from 'node:crypto';

/** Base58-like alphabet: no 0, O, I or l, as the ids of HCP Terraform appear to use. */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export function randomTail(length = 16): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length; i++) {
    if (i >= bytes.length) return out + randomTail(length - out.length);
    const b = bytes[i]!;
    // 58 * 4 = 232: reject bytes above that to keep the distribution uniform.
    if (b < 232) out += ALPHABET[b % 58];
  }
  return out;
}

export type IdPrefix = 'org' | 'prj' | 'ws' | 'user' | 'team' | 'at' | 'tag' | 'tb' | 'apool' | 'ot' | 'sshkey' | 'run' | 'sv' | 'cv' | 'drp' | 'wsout' | 'tprj' | 'tws' | 'ae';

/** A type prefix plus 16 characters of [A-Za-z0-9], e.g. `ws-6jrRyVDv1J8zQMB5`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}-${randomTail(16)}`;
}

export function looksLikeId(prefix: IdPrefix, value: string): boolean {
  return new RegExp(`^${prefix}-[A-Za-z0-9]{16}$`).test(value);
}
