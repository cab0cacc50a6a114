import { usageError } from './prompts.js';

/** One `--field`/`--raw-field` of `berth api`: its key path (`data[attributes][name]`) and value. */
export interface ApiField {
  path: string[];
  value: unknown;
}

/** `@FILE` reads a file; `true`, `false`, `null` and numbers are JSON; anything else a string. */
function typed(value: string, readFile: (path: string) => string): unknown {
  if (value.startsWith('@')) return readFile(value.slice(1));
  if (value === 'true' || value === 'false' || value === 'null') return JSON.parse(value) as unknown;
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
}

function keyPath(key: string): string[] {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!m) throw usageError(`not a field key: "${key}" (use NAME or NAME[SUB][SUB])`);
  return [m[1], ...[...m[2].matchAll(/\[([^[\]]*)\]/g)].map((p) => p[1])];
}

export function parseFields(
  typedFields: string[],
  rawFields: string[],
  readFile: (path: string) => string,
): ApiField[] {
  const split = (field: string) => {
    const at = field.indexOf('=');
    if (at <= 0) throw usageError(`a field is KEY=VALUE, not "${field}"`);
    return [field.slice(0, at), field.slice(at + 1)] as const;
  };
  return [
    ...typedFields.map((f) => {
      const [k, v] = split(f);
      return { path: keyPath(k), value: typed(v, readFile) };
    }),
    ...rawFields.map((f) => {
      const [k, v] = split(f);
      return { path: keyPath(k), value: v };
    }),
  ];
}

/** PATH relative to /api/v2: a leading slash is added, a leading /api/v2 dropped. */
export function apiPath(path: string): string {
  const withSlash = path.startsWith('/') ? path : `/${path}`;
  return withSlash.replace(/^\/api\/v2(?=\/|$|\?)/, '') || '/';
}

/** Fields as query parameters (`filter[name]=x`), appended to any the path already has. */
export function apiQuery(path: string, fields: ApiField[]): string {
  const params = new URLSearchParams();
  for (const f of fields) {
    const [head, ...rest] = f.path;
    params.append(
      `${head}${rest.map((p) => `[${p}]`).join('')}`,
      typeof f.value === 'string' ? f.value : JSON.stringify(f.value),
    );
  }
  return `${path}${path.includes('?') ? '&' : '?'}${params.toString()}`;
}

/** Fields as a JSON body: nested objects by key path; an empty `[]` segment appends to an array. */
export function apiBody(fields: ApiField[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    let node: Record<string, unknown> | unknown[] = body;
    f.path.forEach((segment, i) => {
      const last = i === f.path.length - 1;
      const nextIsArray = !last && f.path[i + 1] === '';
      if (Array.isArray(node)) {
        if (last) node.push(f.value);
        else {
          const child = nextIsArray ? [] : {};
          node.push(child);
          node = child;
        }
        return;
      }
      if (last) node[segment] = f.value;
      else {
        const existing = node[segment];
        if (typeof existing !== 'object' || existing === null) node[segment] = nextIsArray ? [] : {};
        node = node[segment] as Record<string, unknown> | unknown[];
      }
    });
  }
  return body;
}
