/** JSON:API shapes as the client sees them. */
export interface Resource {
  id: string;
  type: string;
  attributes: Record<string, any>;
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

export interface ListResult {
  data: Resource[];
  included?: Resource[];
  pagination?: Pagination;
}

export interface SingleResult {
  data: Resource;
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
