/**
 * The attributes of a resource as they arrive: JSON the client does not check, so a value is
 * `unknown` until its resource's type (resources.ts) or a check says what it is.
 */
export type Attributes = Record<string, unknown>;

/** JSON:API shapes as the client sees them; `A` names the attributes of one kind of resource. */
export interface Resource<A extends Attributes = Attributes> {
  id: string;
  type: string;
  attributes: A;
  relationships?: Record<
    string,
    { data?: { id: string; type: string } | { id: string; type: string }[] | null; links?: Record<string, string> }
  >;
  links?: Record<string, string>;
}

export interface Pagination {
  'current-page': number;
  'page-size': number;
  'prev-page': number | null;
  'next-page': number | null;
  'total-pages': number;
  'total-count': number;
}

export interface ListResult<A extends Attributes = Attributes> {
  data: Resource<A>[];
  included?: Resource[];
  pagination?: Pagination;
}

export interface SingleResult<A extends Attributes = Attributes> {
  data: Resource<A>;
  included?: Resource[];
}

/** Builds `{"data": {"type": ..., "attributes": ...}}`, leaving out undefined attributes. */
export function resourceBody(
  type: string,
  attributes: Record<string, unknown>,
  relationships?: Record<string, unknown>,
): unknown {
  const attrs: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attributes)) if (v !== undefined) attrs[k] = v;
  const data: Record<string, unknown> = { type, attributes: attrs };
  if (relationships) data.relationships = relationships;
  return { data };
}
