import { createHash } from 'node:crypto';
import { Problems } from './errors.js';
import { coarseOutputType } from './state-outputs.js';

/** What berth reads out of a state file (Terraform state format v4 and compatible engines). */
export interface ParsedState {
  serial: number | null;
  lineage: string | null;
  terraformVersion: string | null;
  /** The state format's own `version` (4 for Terraform 0.12 and later). */
  formatVersion: number | null;
  /** Instances of managed resources (data sources are not counted). */
  resourceCount: number;
  outputs: StateOutput[];
  /** Every resource instance, managed and data, in the state's order. */
  instances: StateInstance[];
}

export interface StateOutput {
  name: string;
  sensitive: boolean;
  /** The coarse JSON type HCP Terraform reports: string, number, boolean, array, object. */
  type: string;
  /** The type as the state declares it (`"string"`, `["list","string"]`, ...); null when it declares none. */
  detailedType: unknown;
  value: unknown;
}

export interface StateInstance {
  /** The state's module path (`module.a`, `module.a.module.b`); `root` for the root module. */
  module: string;
  mode: 'managed' | 'data';
  type: string;
  name: string;
  /** The provider configuration as the state names it (`provider["registry.terraform.io/hashicorp/aws"]`). */
  provider: string;
  /** The instance key as written between brackets in an address (`0`, `"a"`); null for a single instance. */
  indexKey: string | null;
}

export function md5Hex(bytes: Buffer | string): string {
  return createHash('md5').update(bytes).digest('hex');
}

const asString = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function instancesOf(r: Record<string, unknown>): StateInstance[] {
  const base = {
    module: asString(r.module) ?? 'root',
    mode: r.mode === 'managed' ? ('managed' as const) : ('data' as const),
    type: asString(r.type) ?? '',
    name: asString(r.name) ?? '',
    provider: asString(r.provider) ?? '',
  };
  if (!Array.isArray(r.instances)) return [{ ...base, indexKey: null }];
  return r.instances.map((i: { index_key?: unknown } | null) => {
    const key = i?.index_key;
    return {
      ...base,
      indexKey: typeof key === 'number' || typeof key === 'string' ? JSON.stringify(key) : null,
    };
  });
}

/**
 * Parses a state file; throws a 422 at `pointer` when it is not a JSON object. Counting: each
 * instance of a `managed` resource is one resource (`count`/`for_each` expand into instances).
 * A body that is not valid UTF-8 is read with replacement characters (only for what berth
 * extracts: the bytes themselves are kept as they are).
 */
export function parseState(body: Buffer | string, pointer: string): ParsedState {
  let json: unknown;
  try {
    json = JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch {
    json = undefined;
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    const problems = new Problems();
    problems.add(pointer, 'State must be a JSON object (a state file)');
    problems.throwIfAny();
  }
  const s = json as Record<string, unknown>;
  const resources = Array.isArray(s.resources) ? (s.resources as unknown[]) : [];
  const instances = resources
    .filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object' && !Array.isArray(r))
    .flatMap(instancesOf);
  const outputs: StateOutput[] = [];
  if (s.outputs && typeof s.outputs === 'object' && !Array.isArray(s.outputs)) {
    for (const [name, o] of Object.entries(s.outputs as Record<string, Record<string, unknown> | null>)) {
      const value = o?.value ?? null;
      const detailedType = o?.type ?? null;
      outputs.push({
        name,
        sensitive: o?.sensitive === true,
        type: coarseOutputType(detailedType, value),
        detailedType,
        value,
      });
    }
  }
  return {
    serial: typeof s.serial === 'number' ? s.serial : null,
    lineage: asString(s.lineage),
    terraformVersion: asString(s.terraform_version),
    formatVersion: typeof s.version === 'number' && Number.isSafeInteger(s.version) ? s.version : null,
    resourceCount: instances.filter((i) => i.mode === 'managed').length,
    outputs,
    instances,
  };
}

/** Decodes base64 strictly (round-trips), or null. */
export function decodeBase64(value: string): Buffer | null {
  const clean = value.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 !== 0) return null;
  return Buffer.from(clean, 'base64');
}
