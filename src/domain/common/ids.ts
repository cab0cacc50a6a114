import { createHash, randomBytes } from 'node:crypto';

/** Base58-like alphabet: no 0, O, I or l, as the ids of HCP Terraform appear to use. */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/**
 * Random bytes are drawn from the system's CSPRNG a few kilobytes at a time and handed out once
 * each: one call per id cost more than making the id (ids are made on every write).
 */
const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let used = 0;

function randomByte(): number {
  if (used >= pool.length) {
    pool = randomBytes(POOL_SIZE);
    used = 0;
  }
  return pool[used++];
}

export function randomTail(length = 16): string {
  let out = '';
  while (out.length < length) {
    const b = randomByte();
    // 58 * 4 = 232: reject bytes above that to keep the distribution uniform.
    if (b < 232) out += ALPHABET[b % 58];
  }
  return out;
}

export type IdPrefix =
  | 'org'
  | 'prj'
  | 'ws'
  | 'user'
  | 'team'
  | 'at'
  | 'tag'
  | 'tb'
  | 'apool'
  | 'ot'
  | 'sshkey'
  | 'run'
  | 'sv'
  | 'cv'
  | 'drp'
  | 'wsout'
  | 'wsr'
  | 'tprj'
  | 'tws'
  | 'ae'
  | 'rtk'
  | 'ou'
  | 'csl'
  | 'tlc'
  | 'varset'
  | 'var'
  | 'agent'
  /** A run event (HCP's `re-`) and a comment on a run (HCP's `wsc-`). */
  | 're'
  | 'wsc'
  /** The provider registry (HCP's prefixes), its GPG keys, archives and mirror entries. */
  | 'prov'
  | 'provver'
  | 'provpltfrm'
  | 'gpgkey'
  | 'rarch'
  | 'mirarch'
  /** A registry module and one of its versions (HCP's `mod-`, `modver-`). */
  | 'mod'
  | 'modver'
  /** A run trigger (HCP's `rt-`). */
  | 'rt'
  /** A notification configuration (HCP's `nc-`) and one delivery waiting in its outbox. */
  | 'nc'
  | 'ncd';

/** A type prefix plus 16 characters of [A-Za-z0-9], e.g. `ws-6jrRyVDv1J8zQMB5`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}-${randomTail(16)}`;
}

export function looksLikeId(prefix: IdPrefix, value: string): boolean {
  return new RegExp(`^${prefix}-[A-Za-z0-9]{16}$`).test(value);
}

/**
 * An id of the form `newId` makes, derived from `seed` (the same seed, the same id): for a name
 * shown in place of another, such as the user of an invitation (domain/organizations/organization-membership.ts).
 */
export function derivedId(prefix: IdPrefix, seed: string): string {
  let out = '';
  for (let round = 0; out.length < 16; round++) {
    for (const b of createHash('sha256').update(`${round}:${seed}`, 'utf8').digest()) {
      if (b < 232 && out.length < 16) out += ALPHABET[b % 58];
    }
  }
  return `${prefix}-${out}`;
}
