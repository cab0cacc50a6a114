import { invalid } from '../common/errors.js';

/**
 * The names of the private provider registry and the mirror (HCP's Private Registry Providers API;
 * Terraform's provider addresses): what each part of a provider's address, version and platform
 * may be. Every check answers a 422 at the attribute's pointer.
 */

/** A provider's type (its `name`): Terraform's rule, lowercase letters, digits and dashes. */
export const PROVIDER_NAME = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
/** A namespace: an organization's name, or a public registry's namespace. */
export const NAMESPACE = /^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,62})$/;
/** A version, as semantic versioning writes it (Terraform refuses the others). */
export const VERSION = /^\d{1,9}\.\d{1,9}\.\d{1,9}(?:-[0-9A-Za-z.-]{1,64})?(?:\+[0-9A-Za-z.-]{1,64})?$/;
/** A plugin protocol version: `5.0`, `6.0`. */
export const PROTOCOL = /^\d{1,3}\.\d{1,3}$/;
/** An operating system or an architecture: `linux`, `amd64`. */
export const PLATFORM_PART = /^[a-z0-9]{1,32}$/;
/** A SHA-256 in hex. */
export const SHA256_HEX = /^[0-9a-fA-F]{64}$/;
/** A file name berth serves: no path, no space, nothing a URL must escape. */
export const FILENAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,254}$/;
/** A registry's hostname in a mirror path, with its port if any (`registry.terraform.io`, `localhost:8443`). */
export const MIRROR_HOSTNAME = /^[a-z0-9](?:[a-z0-9.-]{0,252})(?::\d{1,5})?$/;

export const REGISTRY_NAMES = ['private', 'public'] as const;
export type RegistryName = (typeof REGISTRY_NAMES)[number];

export const MAX_PROTOCOLS = 10;

export function checkPattern(pointer: string, label: string, value: unknown, pattern: RegExp, what: string): string {
  if (typeof value !== 'string' || value === '') throw invalid(pointer, `${label} is required`);
  if (!pattern.test(value)) throw invalid(pointer, `${label} ${JSON.stringify(value.slice(0, 100))} is not ${what}`);
  return value;
}

export function registryNameOf(value: unknown, pointer = '/data/attributes/registry-name'): RegistryName {
  if (value !== 'private' && value !== 'public')
    throw invalid(pointer, `Registry name must be one of: ${REGISTRY_NAMES.join(', ')}`);
  return value;
}

export function protocolsOf(value: unknown, pointer = '/data/attributes/protocols'): string[] {
  if (!Array.isArray(value) || value.length === 0)
    throw invalid(pointer, 'Protocols must be a list of plugin protocol versions, such as ["5.0"]');
  if (value.length > MAX_PROTOCOLS) throw invalid(pointer, `Protocols may list at most ${MAX_PROTOCOLS} versions`);
  for (const p of value)
    if (typeof p !== 'string' || !PROTOCOL.test(p))
      throw invalid(pointer, `Protocols must be versions such as "5.0", not ${JSON.stringify(p)}`);
  return [...new Set(value as string[])];
}

/** Orders versions as semantic versioning does (pre-releases before their release). */
export function compareVersions(a: string, b: string): number {
  const split = (v: string) => {
    const [core, pre] = v.split('+')[0].split(/-(.*)/s);
    return { nums: core.split('.').map(Number), pre: pre ?? null };
  };
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < 3; i++) if (x.nums[i] !== y.nums[i]) return (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
  if (x.pre === y.pre) return 0;
  if (x.pre === null) return 1;
  if (y.pre === null) return -1;
  return x.pre < y.pre ? -1 : 1;
}
