/** How berth presents the resources of a state (`resources`, `modules`, `providers`, workspace resources). */

export interface InstanceRow {
  module: string;
  mode: string;
  type: string;
  name: string;
  provider: string;
  index_key: string | null;
}

/** `module.a[0].module.b` -> `a[0].b`; `root` stays `root`. */
export function shortModule(module: string): string {
  if (module === 'root') return 'root';
  return module.replace(/(^|\.)module\./g, '$1');
}

/** A workspace resource's address: the short module path (none for root), type, name and key. */
export function addressOf(i: InstanceRow): string {
  const prefix = i.module === 'root' ? '' : `${shortModule(i.module)}.`;
  const data = i.mode === 'data' ? 'data.' : '';
  return `${prefix}${data}${i.type}.${i.name}${i.index_key === null ? '' : `[${i.index_key}]`}`;
}

/**
 * A provider configuration as workspace resources name it: `hashicorp/aws` for
 * `provider["registry.terraform.io/hashicorp/aws"]` (the public registry's host dropped), the
 * full source address otherwise.
 */
export function shortProvider(provider: string): string {
  const quoted = /provider\["([^"]+)"\]/.exec(provider)?.[1] ?? provider;
  return quoted.startsWith('registry.terraform.io/') ? quoted.slice('registry.terraform.io/'.length) : quoted;
}

/** The key of a resource type in `modules` and `providers`: `null-resource`, `data.terraform-remote-state`. */
function typeKey(i: { mode: string; type: string }): string {
  return `${i.mode === 'data' ? 'data.' : ''}${i.type.replace(/_/g, '-')}`;
}

export interface ResourceSummary {
  name: string;
  type: string;
  count: number;
  module: string;
  provider: string;
}

/** A resource of a state: its instances counted. */
export interface ResourceGroup {
  module: string;
  mode: string;
  type: string;
  name: string;
  provider: string;
  count: number;
}

/** A state version's `resources`, `modules` and `providers` attributes, from its resources. */
export function summarize(groups: ResourceGroup[]): {
  resources: ResourceSummary[];
  modules: Record<string, Record<string, number>>;
  providers: Record<string, Record<string, number>>;
} {
  const resources: ResourceSummary[] = [];
  const modules: Record<string, Record<string, number>> = {};
  const providers: Record<string, Record<string, number>> = {};
  for (const g of groups) {
    resources.push({
      name: g.name,
      type: `${g.mode === 'data' ? 'data.' : ''}${g.type}`,
      count: g.count,
      module: g.module,
      provider: g.provider,
    });
    const k = typeKey(g);
    const m = (modules[g.module] ??= {});
    m[k] = (m[k] ?? 0) + g.count;
    const p = (providers[g.provider] ??= {});
    p[k] = (p[k] ?? 0) + g.count;
  }
  return { resources, modules, providers };
}
