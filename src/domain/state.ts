import { createHash } from 'node:crypto';
import { Problems } from './errors.js';

/** What berth reads out of a state file (Terraform state format v4 and compatible engines). */
export interface ParsedState {
  serial: number | null;
  lineage: string | null;
  terraformVersion: string | null;
  /** Instances of managed resources (data sources are not counted). */
  resourceCount: number;
  outputs: StateOutput[];
}

export interface StateOutput {
  name: string;
  type: unknown;
  value: unknown;
  sensitive: boolean;
}

export function md5Hex(bytes: Buffer | string): string {
  return createHash('md5').update(bytes).digest('hex');
}

/**
 * Parses a state file; throws a 422 at `pointer` when it is not a JSON object. Counting: each
 * instance of a `managed` resource is one resource (`count`/`for_each` expand into instances).
 */
export function parseState(text: string, pointer: string): ParsedState {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    const problems = new Problems();
    problems.add(pointer, 'State must be a JSON object (a state file)');
    problems.throwIfAny();
  }
  const s = json as Record<string, unknown>;
  const resources = Array.isArray(s.resources) ? s.resources : [];
  let resourceCount = 0;
  for (const r of resources as Record<string, unknown>[]) {
    if (r?.mode !== 'managed') continue;
    resourceCount += Array.isArray(r.instances) ? r.instances.length : 1;
  }
  const outputs: StateOutput[] = [];
  if (s.outputs && typeof s.outputs === 'object') {
    for (const [name, o] of Object.entries(s.outputs as Record<string, Record<string, unknown>>)) {
      outputs.push({ name, type: o?.type ?? null, value: o?.value ?? null, sensitive: o?.sensitive === true });
    }
  }
  return {
    serial: typeof s.serial === 'number' ? s.serial : null,
    lineage: typeof s.lineage === 'string' ? s.lineage : null,
    terraformVersion: typeof s.terraform_version === 'string' ? s.terraform_version : null,
    resourceCount,
    outputs,
  };
}

/** Decodes base64 strictly (round-trips), or null. */
export function decodeBase64(value: string): Buffer | null {
  const clean = value.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 !== 0) return null;
  return Buffer.from(clean, 'base64');
}
