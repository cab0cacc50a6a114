/**
 * Reading a state file: what berth extracts from it, and the bounds on what a parse may cost.
 *
 * Every function here is a self-contained function declaration that calls only the others of this
 * file (no imports, no module-level constants, no classes): `services/state/state-parser.ts` runs them
 * on a worker thread from their source text (`STATE_PARSE_FUNCTIONS`), so that parsing a state of
 * tens of megabytes never blocks the event loop. Keep it so when changing them.
 */

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
  /** The type as the state declares it (`"string"`, `["list","string"]`, ...) as JSON text; null when it declares none. */
  detailedTypeJson: string | null;
  /** The value as JSON text (text, not a tree: cheap to hand from the parsing thread to the recording one). */
  valueJson: string;
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

/** What one parse may cost: nesting depth, JSON values (keys not counted), resource instances. */
export interface StateParseLimits {
  maxDepth: number;
  maxValues: number;
  maxInstances: number;
}

/** The bounds of an uploaded state or JSON state (docs/api.md, "State uploads"). */
export const STATE_PARSE_LIMITS: StateParseLimits = { maxDepth: 256, maxValues: 4_000_000, maxInstances: 100_000 };

/** A parse's outcome: the state, or why it was refused (`bound`: beyond a bound, rather than malformed). */
export type StateParseResult = { ok: true; state: ParsedState } | { ok: false; detail: string; bound: boolean };

/**
 * Checks JSON text against the depth and value bounds before anything is built from it: one pass
 * over the characters, outside strings. For valid JSON the count is exact (every value: 1 for the
 * document, plus one per element of each container, which is its commas plus one when it is not
 * empty); for invalid JSON it is an estimate, and JSON.parse refuses the text afterwards anyway.
 * Returns why the text is refused, or null.
 */
export function jsonBoundsProblem(text: string, maxDepth: number, maxValues: number): string | null {
  let depth = 0;
  let values = 1;
  let opened = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    if (opened) {
      opened = false;
      if (c !== 0x5d && c !== 0x7d) values++;
    }
    if (c === 0x22) {
      // A string: skip to its closing quote (a backslash escapes the next character).
      for (i++; i < n; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return `it nests deeper than ${maxDepth} levels`;
      opened = true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    } else if (c === 0x2c) {
      values++;
    }
    if (values > maxValues) return `it holds more than ${maxValues} JSON values`;
  }
  return null;
}

/**
 * Parses a state file's text. Counting: each instance of a `managed` resource is one resource
 * (`count`/`for_each` expand into instances). With `limits`, a state beyond them is refused before
 * it is parsed (depth, values) or once it is (resource instances).
 */
export function parseStateText(text: string, limits: StateParseLimits | null): StateParseResult {
  if (limits) {
    const problem = jsonBoundsProblem(text, limits.maxDepth, limits.maxValues);
    if (problem) return { ok: false, bound: true, detail: `The state is too large to process: ${problem}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    return { ok: false, bound: false, detail: 'State must be a JSON object (a state file)' };
  const s = json as Record<string, unknown>;
  const instances: StateInstance[] = [];
  const resources = Array.isArray(s.resources) ? (s.resources as unknown[]) : [];
  for (const r of resources) {
    if (r !== null && typeof r === 'object' && !Array.isArray(r)) addInstances(r as Record<string, unknown>, instances);
    if (limits && instances.length > limits.maxInstances)
      return {
        ok: false,
        bound: true,
        detail: `The state is too large to process: it holds more than ${limits.maxInstances} resource instances`,
      };
  }
  const outputs: StateOutput[] = [];
  if (s.outputs && typeof s.outputs === 'object' && !Array.isArray(s.outputs)) {
    for (const [name, o] of Object.entries(s.outputs as Record<string, Record<string, unknown> | null>)) {
      const value = o?.value ?? null;
      const detailedType = o?.type ?? null;
      outputs.push({
        name,
        sensitive: o?.sensitive === true,
        type: coarseOutputType(detailedType, value),
        detailedTypeJson: detailedType === null ? null : JSON.stringify(detailedType),
        valueJson: JSON.stringify(value),
      });
    }
  }
  let resourceCount = 0;
  for (const i of instances) if (i.mode === 'managed') resourceCount++;
  return {
    ok: true,
    state: {
      serial: typeof s.serial === 'number' ? s.serial : null,
      lineage: stringOrNull(s.lineage),
      terraformVersion: stringOrNull(s.terraform_version),
      formatVersion: typeof s.version === 'number' && Number.isSafeInteger(s.version) ? s.version : null,
      resourceCount,
      outputs,
      instances,
    },
  };
}

/** Checks the JSON form of a state (`terraform show -json`): within the bounds, and JSON. Returns why not, or null. */
export function jsonStateProblem(text: string, limits: StateParseLimits | null): string | null {
  if (limits) {
    const problem = jsonBoundsProblem(text, limits.maxDepth, limits.maxValues);
    if (problem) return `The JSON state is too large to process: ${problem}`;
  }
  try {
    JSON.parse(text);
    return null;
  } catch {
    return 'The JSON state must be JSON (the output of `terraform show -json`)';
  }
}

function stringOrNull(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** Appends the instances of one resource of a state. */
function addInstances(r: Record<string, unknown>, out: StateInstance[]): void {
  const module = stringOrNull(r.module) ?? 'root';
  const mode = r.mode === 'managed' ? 'managed' : 'data';
  const type = stringOrNull(r.type) ?? '';
  const name = stringOrNull(r.name) ?? '';
  const provider = stringOrNull(r.provider) ?? '';
  if (!Array.isArray(r.instances)) {
    out.push({ module, mode, type, name, provider, indexKey: null });
    return;
  }
  for (const i of r.instances as ({ index_key?: unknown } | null)[]) {
    const key = i?.index_key;
    const indexKey = typeof key === 'number' || typeof key === 'string' ? JSON.stringify(key) : null;
    out.push({ module, mode, type, name, provider, indexKey });
  }
}

/**
 * The coarse type of an output, as HCP Terraform reports it in the `type` of a state version
 * output and the `output-type` of a workspace output: the JSON type of the value (`string`,
 * `number`, `boolean`, `array`, `object`). It comes from the type the state declares
 * (`"bool"`, `["list","string"]`, `["object",{...}]`, ...) and, when that says nothing usable
 * (no type, `"dynamic"`), from the value itself.
 */
export function coarseOutputType(declared: unknown, value: unknown): string {
  const kind: unknown = Array.isArray(declared) ? (declared as unknown[])[0] : declared;
  switch (kind) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'bool':
      return 'boolean';
    case 'list':
    case 'set':
    case 'tuple':
      return 'array';
    case 'map':
    case 'object':
      return 'object';
    default:
      return jsonTypeOf(value);
  }
}

function jsonTypeOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'string';
  switch (typeof value) {
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'object':
      return 'object';
    default:
      return 'string';
  }
}

/** The functions a parsing worker needs, for their source text; the worker calls them by their `name`. */
export const STATE_PARSE_FUNCTIONS = [
  jsonBoundsProblem,
  parseStateText,
  jsonStateProblem,
  stringOrNull,
  addInstances,
  coarseOutputType,
  jsonTypeOf,
];
