import { MIRROR_HOSTNAME, NAMESPACE, PLATFORM_PART, PROVIDER_NAME, VERSION } from './provider-names.js';

/**
 * The names in a provider network mirror's paths (Terraform's "Provider Network Mirror
 * Protocol"): `:hostname/:namespace/:type/index.json`, `:version.json`, and the archives that
 * `terraform providers mirror` writes beside them, `terraform-provider-TYPE_VERSION_OS_ARCH.zip`.
 */

export interface MirrorProvider {
  hostname: string;
  namespace: string;
  type: string;
}

/** The provider a mirror path names, its hostname lowercased (as Terraform normalises it), or null. */
export function mirrorProviderOf(hostname: string, namespace: string, type: string): MirrorProvider | null {
  const host = hostname.toLowerCase();
  if (!MIRROR_HOSTNAME.test(host) || !NAMESPACE.test(namespace) || !PROVIDER_NAME.test(type.toLowerCase())) return null;
  return { hostname: host, namespace, type: type.toLowerCase() };
}

export interface ArchiveName {
  type: string;
  version: string;
  os: string;
  arch: string;
}

/** The parts of `terraform-provider-TYPE_VERSION_OS_ARCH.zip`, or null for another name. */
export function archiveNameOf(filename: string): ArchiveName | null {
  const m = /^terraform-provider-([a-z0-9-]+)_([^_/]+)_([a-z0-9]+)_([a-z0-9]+)\.zip$/.exec(filename);
  if (!m || !VERSION.test(m[2]) || !PLATFORM_PART.test(m[3]) || !PLATFORM_PART.test(m[4])) return null;
  return { type: m[1], version: m[2], os: m[3], arch: m[4] };
}

export function archiveFilename(a: ArchiveName): string {
  return `terraform-provider-${a.type}_${a.version}_${a.os}_${a.arch}.zip`;
}

/** A hash as the mirror protocol and lock files write them: `h1:` (base64) or `zh:` (hex). */
export const MIRROR_HASH = /^(?:h1:[A-Za-z0-9+/]{43}=|zh:[0-9a-f]{64})$/;
