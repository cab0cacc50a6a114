import type { Resource } from '../../client/jsonapi.js';
import type { MirrorPackageAttributes } from '../../client/provider-mirror.js';
import { compareVersions } from '../../domain/registry/provider-names.js';
import { usageError } from '../common/prompts.js';
import { renderTable } from '../output/output.js';

/** `HOSTNAME/NAMESPACE/TYPE` (e.g. `registry.terraform.io/hashicorp/null`), as a mirror's paths name a provider. */
export function parseMirrorProvider(arg: string): { hostname: string; namespace: string; type: string } {
  const parts = arg.split('/');
  if (parts.length !== 3 || parts.some((p) => p === ''))
    throw usageError(`${arg}: give the provider as HOSTNAME/NAMESPACE/TYPE, e.g. registry.terraform.io/hashicorp/null`);
  return { hostname: parts[0].toLowerCase(), namespace: parts[1], type: parts[2].toLowerCase() };
}

export const providerOf = (p: Resource<MirrorPackageAttributes>) =>
  `${p.attributes.hostname}/${p.attributes.namespace}/${p.attributes['provider-type']}`;

export interface MirrorVersionRow {
  provider: string;
  version: string;
  platforms: string[];
  size: number;
}

/** One row per provider and version (providers in the list's order, versions newest first). */
export function versionRows(packages: Resource<MirrorPackageAttributes>[]): MirrorVersionRow[] {
  const rows = new Map<string, MirrorVersionRow>();
  for (const p of packages) {
    const key = `${providerOf(p)} ${p.attributes.version}`;
    const row = rows.get(key) ?? { provider: providerOf(p), version: p.attributes.version, platforms: [], size: 0 };
    row.platforms.push(`${p.attributes.os}_${p.attributes.arch}`);
    row.size += p.attributes.size;
    rows.set(key, row);
  }
  const order = [...new Set(packages.map(providerOf))];
  return [...rows.values()]
    .map((r) => ({ ...r, platforms: r.platforms.sort() }))
    .sort((a, b) => order.indexOf(a.provider) - order.indexOf(b.provider) || compareVersions(b.version, a.version));
}

const sizeText = (n: number) =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`;

export function mirrorTable(rows: MirrorVersionRow[]): string {
  return renderTable(rows, [
    { header: 'PROVIDER', value: (r) => r.provider },
    { header: 'VERSION', value: (r) => r.version },
    { header: 'PLATFORMS', value: (r) => r.platforms.join(', ') },
    { header: 'SIZE', value: (r) => sizeText(r.size) },
  ]);
}
