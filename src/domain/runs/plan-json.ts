import { concealedText, withSecretMarks, type Json } from './plan-json-secrets.js';

/**
 * The redacted JSON plan HCP Terraform serves at `GET /plans/:id/json-output-redacted`, made of a
 * run's JSON plan (`terraform show -json` of its saved plan) and its provider schemas
 * (`terraform providers schema -json`): the document the Terraform CLI decodes to render a saved
 * cloud plan (`terraform show FILE`): the plan's changes, drift and relevant attributes, the plan
 * and provider format versions, and the provider schemas. Nothing else of the plan (its variables,
 * prior state, planned values, configuration), no value the plan marks sensitive (placeholders),
 * and none of the workspace's sensitive values (plan-json-secrets.ts).
 */

type JsonObject = { [key: string]: Json };

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What stands for a sensitive value: a value of the same JSON type that tells nothing of it (the
 * CLI renders it `(sensitive value)` and reads it only to tell its type and whether it changed):
 * `changed` gives the placeholder of an `after` that differs from its `before`. A sensitive
 * collection becomes an empty one, its elements and keys hidden too.
 */
function placeholder(value: Json, changed: boolean): Json {
  if (value === null) return null;
  if (typeof value === 'string') return changed ? '*' : '';
  if (typeof value === 'number') return changed ? 1 : 0;
  if (typeof value === 'boolean') return changed;
  return Array.isArray(value) ? [] : {};
}

const kind = (v: Json) => (v === null ? 'null' : Array.isArray(v) ? 'array' : isObject(v) ? 'object' : 'scalar');
const same = (a: Json | undefined, b: Json | undefined) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * `value` with what `sensitive` marks replaced by a placeholder: `true` marks the whole value; an
 * array or object of the same shape marks its elements or attributes (terraform's `*_sensitive`).
 */
export function redactSensitive(value: Json, sensitive: Json | undefined): Json {
  return redactPair(value, null, sensitive, undefined)[0];
}

/**
 * A `before` and an `after` with what their `*_sensitive` marks replaced by placeholders, side by
 * side, so that a sensitive value that changed still shows as changed (as terraform's own plan
 * output shows it), and one that did not, as unchanged.
 */
export function redactPair(before: Json, after: Json, bs: Json | undefined, as: Json | undefined): [Json, Json] {
  if (bs === true || as === true) {
    const changed = !same(before, after);
    return [
      bs === true ? placeholder(before, false) : redactPair(before, null, bs, undefined)[0],
      as === true ? placeholder(after, changed) : redactPair(after, null, as, undefined)[0],
    ];
  }
  const kb = kind(before);
  const ka = kind(after);
  // A collection on one side and something else (not null) on the other: each side on its own.
  if (
    (kb === 'array' || kb === 'object' || ka === 'array' || ka === 'object') &&
    kb !== ka &&
    kb !== 'null' &&
    ka !== 'null'
  )
    return [redactPair(before, null, bs, undefined)[0], redactPair(after, null, as, undefined)[0]];
  if (Array.isArray(before) || Array.isArray(after)) {
    const b = Array.isArray(before) ? before : null;
    const a = Array.isArray(after) ? after : null;
    const n = Math.max(b?.length ?? 0, a?.length ?? 0);
    const bOut: Json[] = [];
    const aOut: Json[] = [];
    for (let i = 0; i < n; i++) {
      const [x, y] = redactPair(
        b?.[i] ?? null,
        a?.[i] ?? null,
        Array.isArray(bs) ? bs[i] : undefined,
        Array.isArray(as) ? as[i] : undefined,
      );
      if (b && i < b.length) bOut.push(x);
      if (a && i < a.length) aOut.push(y);
    }
    return [b ? bOut : before, a ? aOut : after];
  }
  if (isObject(before) || isObject(after)) {
    const b = isObject(before) ? before : null;
    const a = isObject(after) ? after : null;
    const bOut: JsonObject = {};
    const aOut: JsonObject = {};
    for (const k of new Set([...Object.keys(b ?? {}), ...Object.keys(a ?? {})])) {
      const [x, y] = redactPair(
        b?.[k] ?? null,
        a?.[k] ?? null,
        isObject(bs) ? bs[k] : undefined,
        isObject(as) ? as[k] : undefined,
      );
      if (b && k in b) bOut[k] = x;
      if (a && k in a) aOut[k] = y;
    }
    return [b ? bOut : before, a ? aOut : after];
  }
  return [before, after];
}

/**
 * A change (`before`/`after` with their `*_sensitive` marks) with its sensitive values hidden:
 * those terraform marks, and those holding one of `secrets` (marked so too, plan-json-secrets.ts).
 */
function redactChange(change: Json, secrets: readonly string[]): Json {
  if (!isObject(change)) return change;
  const bs = withSecretMarks(change.before ?? null, change.before_sensitive, secrets);
  const as = withSecretMarks(change.after ?? null, change.after_sensitive, secrets);
  const [before, after] = redactPair(change.before ?? null, change.after ?? null, bs, as);
  const marks: JsonObject = {};
  if (bs !== undefined) marks.before_sensitive = bs;
  if (as !== undefined) marks.after_sensitive = as;
  return { ...change, before, after, ...marks };
}

/** A resource change (or drift) whose `change` is redacted. */
function redactResourceChange(rc: Json, secrets: readonly string[]): Json {
  return isObject(rc) ? { ...rc, change: redactChange(rc.change ?? null, secrets) } : rc;
}

const list = (v: Json | undefined): Json[] => (Array.isArray(v) ? v : []);

/**
 * The redacted plan document of a JSON plan and its provider schemas (both already parsed; not
 * objects: empty ones). Fields the plan lacks are left out, as terraform leaves them out.
 * `secrets`: the workspace's sensitive values (none empty), hidden wherever they occur but in the
 * provider schemas (plan-json-secrets.ts).
 */
export function redactedPlan(plan: unknown, schemas: unknown, secrets: readonly string[] = []): JsonObject {
  const p: JsonObject = isObject(plan) ? plan : {};
  const s: JsonObject = isObject(schemas) ? schemas : {};
  const out: JsonObject = { plan_format_version: typeof p.format_version === 'string' ? p.format_version : '' };
  if (isObject(p.output_changes)) {
    const outputs: JsonObject = {};
    for (const [name, change] of Object.entries(p.output_changes)) outputs[name] = redactChange(change, secrets);
    out.output_changes = outputs;
  }
  if (p.resource_changes !== undefined)
    out.resource_changes = list(p.resource_changes).map((rc) => redactResourceChange(rc, secrets));
  if (p.resource_drift !== undefined)
    out.resource_drift = list(p.resource_drift).map((rc) => redactResourceChange(rc, secrets));
  if (p.relevant_attributes !== undefined) out.relevant_attributes = list(p.relevant_attributes);
  if (p.deferred_changes !== undefined)
    out.deferred_changes = list(p.deferred_changes).map((d) =>
      isObject(d) ? { ...d, resource_change: redactResourceChange(d.resource_change ?? null, secrets) } : d,
    );
  // The plan's own text (addresses, for_each keys, paths) holds the workspace's values too.
  for (const field of [
    'output_changes',
    'resource_changes',
    'resource_drift',
    'relevant_attributes',
    'deferred_changes',
  ])
    if (out[field] !== undefined) out[field] = concealedText(out[field], secrets);
  out.provider_format_version = typeof s.format_version === 'string' ? s.format_version : '';
  out.provider_schemas = isObject(s.provider_schemas) ? s.provider_schemas : {};
  return out;
}
