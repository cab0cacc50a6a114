import type { Problems } from './errors.js';

/**
 * The `data` member of `relationships[name]`: `undefined` when the relationship or its `data` is
 * absent, or when the relationship is not an object (reported at `/data/relationships/<name>`).
 */
function relationshipData(rels: Record<string, unknown>, name: string, problems: Problems): unknown {
  const rel = rels[name];
  if (rel === undefined) return undefined;
  if (rel === null || typeof rel !== 'object' || Array.isArray(rel)) {
    problems.add(`/data/relationships/${name}`, `${name} must be an object with a data member`);
    return undefined;
  }
  return (rel as { data?: unknown }).data;
}

/**
 * Reads a to-one relationship `relationships[name].data = {type, id}` of a request body: the id,
 * `null` for `data: null` (clears), `undefined` when absent. Only `type` and `id` are read (go-tfe
 * sends whole resource objects); problems are reported at `/data/relationships/<name>/data`.
 */
export function toOneId(
  rels: Record<string, unknown>,
  name: string,
  type: string,
  problems: Problems,
): string | null | undefined {
  const at = `/data/relationships/${name}`;
  const data = relationshipData(rels, name, problems);
  if (data === undefined) return undefined;
  if (data === null) return null;
  if (typeof data !== 'object' || Array.isArray(data)) {
    problems.add(`${at}/data`, `data must be an object with type and id`);
    return undefined;
  }
  const { type: t, id } = data as { type?: unknown; id?: unknown };
  if (t !== type) problems.add(`${at}/data/type`, `type must be "${type}"`);
  else if (typeof id !== 'string' || id.trim() === '') problems.add(`${at}/data/id`, 'id is required');
  else return id.trim();
  return undefined;
}

/**
 * Reads a to-many relationship `relationships[name].data = [{type, id}, ...]`: the distinct ids
 * in order, `[]` for `data: []` or `data: null`, `undefined` when absent.
 */
export function toManyIds(
  rels: Record<string, unknown>,
  name: string,
  type: string,
  problems: Problems,
): string[] | undefined {
  const at = `/data/relationships/${name}`;
  const data = relationshipData(rels, name, problems);
  if (data === undefined) return undefined;
  if (data === null) return [];
  if (!Array.isArray(data)) {
    problems.add(`${at}/data`, `data must be an array of ${type}`);
    return undefined;
  }
  const ids: string[] = [];
  data.forEach((item, i) => {
    const { type: t, id } = (item && typeof item === 'object' ? item : {}) as { type?: unknown; id?: unknown };
    if (t !== type) problems.add(`${at}/data/${i}/type`, `type must be "${type}"`);
    else if (typeof id !== 'string' || id === '') problems.add(`${at}/data/${i}/id`, 'id is required');
    else if (!ids.includes(id)) ids.push(id);
  });
  return ids;
}
