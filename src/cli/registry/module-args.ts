import { usageError } from '../common/prompts.js';
import { renderTable } from '../output/output.js';
import type { Resource } from '../../client/jsonapi.js';
import type { RegistryModuleAttributes } from '../../client/registry-modules.js';

/** `NAME/PROVIDER` (e.g. `vpc/aws`), as terraform's source `HOST/ORG/NAME/PROVIDER` ends. */
export function parseModuleArg(
  arg: string,
  options: { providerOptional?: boolean } = {},
): {
  name: string;
  provider?: string;
} {
  const parts = arg.split('/');
  if (parts.length === 1 && options.providerOptional && parts[0]) return { name: parts[0] };
  if (parts.length !== 2 || !parts[0] || !parts[1])
    throw usageError(`${arg}: give the module as NAME/PROVIDER, e.g. vpc/aws`);
  return { name: parts[0], provider: parts[1] };
}

/** The newest version of a module, and how many it has. */
export function versionsText(m: Resource<RegistryModuleAttributes>): string {
  const v = m.attributes['version-statuses'] ?? [];
  if (v.length === 0) return '-';
  return v.length === 1 ? v[0].version : `${v[0].version} (+${v.length - 1})`;
}

export function moduleTable(mods: Resource<RegistryModuleAttributes>[]): string {
  return renderTable(mods, [
    { header: 'NAME', value: (m) => m.attributes.name },
    { header: 'PROVIDER', value: (m) => m.attributes.provider },
    { header: 'REGISTRY', value: (m) => m.attributes['registry-name'] },
    { header: 'LATEST', value: (m) => versionsText(m) },
    { header: 'ID', value: (m) => m.id },
  ]);
}

/** The source address a configuration names the module by. */
export function sourceOf(host: string, m: Resource<RegistryModuleAttributes>): string {
  return `${host}/${m.attributes.namespace}/${m.attributes.name}/${m.attributes.provider}`;
}
