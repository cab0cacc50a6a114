/**
 * The workspace's sensitive values in a redacted JSON plan (`GET /plans/:id/json-output-redacted`).
 * Terraform marks sensitive only what the configuration declares so; a workspace variable marked
 * sensitive in berth but not in the configuration reaches the plan's values unmarked, as it reaches
 * the log. The log conceals it (runner/log-scrubber.ts); here, a value holding one is marked
 * sensitive, so that the redaction replaces it by a placeholder and the CLI prints it
 * `(sensitive value)`, and any other text holding one (an address, an index, a path) has it
 * replaced by `(sensitive value)`, as the log has. Pure: no I/O.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** What a sensitive value becomes in the text of a redacted plan: what the log shows for it. */
export const CONCEALED_IN_PLAN = '(sensitive value)';

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a string's or a number's text holds one of `secrets` (none empty). */
const holds = (v: string | number, secrets: readonly string[]) => {
  const text = typeof v === 'string' ? v : String(v);
  return secrets.some((s) => text.includes(s));
};

/**
 * `marks` (a `*_sensitive` of terraform's: `true`, or an array or object of the value's shape)
 * with `true` added where `value` holds a secret: a string or number holding one, or a collection
 * with a key holding one (its keys are hidden with it). `marks` itself when nothing is added.
 */
export function withSecretMarks(value: Json, marks: Json | undefined, secrets: readonly string[]): Json | undefined {
  if (marks === true || secrets.length === 0 || value === null || typeof value === 'boolean') return marks;
  if (typeof value === 'string' || typeof value === 'number') return holds(value, secrets) ? true : marks;
  if (Array.isArray(value)) {
    const old = Array.isArray(marks) ? marks : [];
    let added = false;
    const out = value.map((x, i) => {
      const m = withSecretMarks(x, old[i], secrets);
      if (m !== old[i]) added = true;
      return m ?? false;
    });
    return added ? out : marks;
  }
  if (Object.keys(value).some((k) => holds(k, secrets))) return true;
  const old = isObject(marks) ? marks : {};
  let added = false;
  const out: JsonObject = { ...old };
  for (const [k, x] of Object.entries(value)) {
    const m = withSecretMarks(x, old[k], secrets);
    if (m !== old[k] && m !== undefined) {
      out[k] = m;
      added = true;
    }
  }
  return added ? out : marks;
}

/**
 * Fields of a change or a resource change (an object with `actions` or `mode`) whose values are
 * terraform's vocabulary, or placeholders already, not the run's data.
 */
const KEPT = new Set(['before', 'after', 'mode', 'type', 'provider_name', 'actions', 'action_reason']);

function replaced(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(CONCEALED_IN_PLAN);
  return out;
}

/**
 * `doc` with every secret replaced by `(sensitive value)` in its strings and keys, but for the
 * fields in KEPT. `secrets` longest first, so that a secret holding another is replaced whole.
 */
export function concealedText(doc: Json, secrets: readonly string[]): Json {
  if (secrets.length === 0) return doc;
  const longestFirst = [...secrets].sort((a, b) => b.length - a.length);
  const walk = (v: Json): Json => {
    if (typeof v === 'string') return replaced(v, longestFirst);
    if (Array.isArray(v)) return v.map(walk);
    if (!isObject(v)) return v;
    const record = 'actions' in v || 'mode' in v;
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) out[replaced(k, longestFirst)] = record && KEPT.has(k) ? x : walk(x);
    return out;
  };
  return walk(doc);
}
