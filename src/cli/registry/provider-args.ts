import type { Resource } from '../../client/jsonapi.js';
import type {
  ProviderPlatformAttributes,
  ProviderRef,
  ProviderVersionAttributes,
  RegistryProviderAttributes,
} from '../../client/registry-providers.js';
import { compareVersions } from '../../domain/registry/provider-names.js';
import { usageError } from '../common/prompts.js';
import { renderTable } from '../output/output.js';

/**
 * A provider of the organization's registry by name: `NAME` (a private provider, whose namespace
 * is the organization's name) or `NAMESPACE/NAME` (another namespace: a record of a public
 * registry's provider).
 */
export function parseProviderArg(arg: string, org: string): ProviderRef {
  const parts = arg.split('/');
  if (parts.length === 1 && parts[0]) return { org, registryName: 'private', namespace: org, name: parts[0] };
  if (parts.length === 2 && parts[0] && parts[1])
    return { org, registryName: parts[0] === org ? 'private' : 'public', namespace: parts[0], name: parts[1] };
  throw usageError(`${arg}: give the provider as NAME (a private provider of ${org}) or NAMESPACE/NAME`);
}

/** The versions of a provider, newest first. */
export function newestFirst<T extends Resource<ProviderVersionAttributes>>(versions: T[]): T[] {
  return [...versions].sort((a, b) => compareVersions(b.attributes.version, a.attributes.version));
}

/** `1.2.0 (+3)`: the newest version and how many more. */
export function versionsSummary(versions: Resource<ProviderVersionAttributes>[]): string {
  if (versions.length === 0) return '-';
  const [newest] = newestFirst(versions);
  return versions.length === 1 ? newest.attributes.version : `${newest.attributes.version} (+${versions.length - 1})`;
}

export function providerTable(
  providers: Resource<RegistryProviderAttributes>[],
  versionsOf: (p: Resource<RegistryProviderAttributes>) => Resource<ProviderVersionAttributes>[],
): string {
  return renderTable(providers, [
    { header: 'NAME', value: (p) => p.attributes.name },
    { header: 'NAMESPACE', value: (p) => p.attributes.namespace },
    { header: 'REGISTRY', value: (p) => p.attributes['registry-name'] },
    { header: 'LATEST', value: (p) => versionsSummary(versionsOf(p)) },
  ]);
}

/** Whether a version can be installed: its SHA256SUMS, signature and every platform's archive uploaded. */
export function versionState(
  v: Resource<ProviderVersionAttributes>,
  platforms: Resource<ProviderPlatformAttributes>[],
): string {
  if (!v.attributes['shasums-uploaded'] || !v.attributes['shasums-sig-uploaded']) return 'incomplete (no SHA256SUMS)';
  if (platforms.length === 0) return 'incomplete (no platform)';
  const missing = platforms.filter((p) => !p.attributes['provider-binary-uploaded']).length;
  return missing === 0 ? 'ok' : `incomplete (${missing} archive${missing === 1 ? '' : 's'} missing)`;
}

export const platformNames = (platforms: Resource<ProviderPlatformAttributes>[]) =>
  platforms.map((p) => `${p.attributes.os}_${p.attributes.arch}`).sort();
