import { UsageError } from './exit-codes.js';

/**
 * `--jq EXPR`: a documented subset of jq, evaluated in-process (no jq binary, no dependency).
 * Supported: `.`, `.a.b`, `."a-b"`, `.["k"]`, `.[N]` (negative from the end), `.[]`, `..`-free
 * paths with `?`, pipes `|`, commas `,`, parentheses, literals (strings, numbers, true, false,
 * null), array `[...]` and object `{a, b: .x, "c": ...}` construction, comparisons
 * (`== != < <= > >=`), `and`, `or`, `//` (alternative), `+`/`-` on numbers, strings, arrays, and the
 * functions `select(f)`, `map(f)`, `length`, `keys`, `has(k)`, `not`, `first`, `last`, `join(s)`,
 * `sort`, `sort_by(f)`, `unique`, `add`, `tostring`, `tonumber`, `ascii_downcase`,
 * `ascii_upcase`, `startswith(s)`, `endswith(s)`, `contains(x)`, `test(re)`, `type`, `empty`,
 * `to_entries`, `from_entries`, `any`, `all`, `min`, `max`, `values`.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Filter = (input: Json) => Json[];

class JqError extends UsageError {
  constructor(message: string) {
    super(`--jq: ${message}`);
  }
}

const TOKEN =
  /\s*(?:(?<num>\d+(?:\.\d+)?)|(?<str>"(?:[^"\\]|\\.)*")|(?<op>\/\/|==|!=|<=|>=|\|=|[.[\]{}(),:|<>+\-?])|(?<id>[A-Za-z_][A-Za-z0-9_]*))/y;

interface Token {
  kind: 'num' | 'str' | 'op' | 'id';
  text: string;
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < source.length) {
    if (source.slice(at).trim() === '') break;
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(source);
    if (!m?.groups) throw new JqError(`cannot read the expression at "${source.slice(at).trim()}"`);
    const [kind, text] = Object.entries(m.groups).find(([, v]) => v !== undefined) as [Token['kind'], string];
    tokens.push({ kind, text });
    at = TOKEN.lastIndex;
  }
  return tokens;
}

const typeOf = (v: Json): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v;

const truthy = (v: Json) => v !== null && v !== false;

function compare(a: Json, b: Json): number {
  const order = ['null', 'boolean', 'number', 'string', 'array', 'object'];
  const ta = order.indexOf(typeOf(a));
  const tb = order.indexOf(typeOf(b));
  if (ta !== tb) return ta - tb;
  if (typeof a === 'number' || typeof a === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'string') return a < (b as string) ? -1 : a > (b as string) ? 1 : 0;
  const sa = JSON.stringify(a);
  const sb = JSON.stringify(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

function index(value: Json, key: Json, optional: boolean): Json[] {
  if (value === null) return [null];
  if (typeof key === 'string' && typeof value === 'object' && !Array.isArray(value)) return [value[key] ?? null];
  if (typeof key === 'number' && Array.isArray(value)) return [value[key < 0 ? value.length + key : key] ?? null];
  if (optional) return [];
  throw new JqError(`cannot index ${typeOf(value)} with ${JSON.stringify(key)}`);
}

function iterate(value: Json, optional: boolean): Json[] {
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === 'object') return Object.values(value);
  if (optional) return [];
  throw new JqError(`cannot iterate over ${typeOf(value)}`);
}

function add(a: Json, b: Json): Json {
  if (a === null) return b;
  if (b === null) return a;
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  if (typeof a === 'string' && typeof b === 'string') return a + b;
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  if (typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) return { ...a, ...b };
  throw new JqError(`cannot add ${typeOf(a)} and ${typeOf(b)}`);
}

const length = (v: Json): number =>
  v === null
    ? 0
    : typeof v === 'string' || Array.isArray(v)
      ? v.length
      : typeof v === 'object'
        ? Object.keys(v).length
        : typeof v === 'number'
          ? Math.abs(v)
          : (() => {
              throw new JqError('boolean has no length');
            })();

const asArray = (v: Json, name: string): Json[] => {
  if (!Array.isArray(v)) throw new JqError(`${name} needs an array, not ${typeOf(v)}`);
  return v;
};
const asString = (v: Json, name: string): string => {
  if (typeof v !== 'string') throw new JqError(`${name} needs a string, not ${typeOf(v)}`);
  return v;
};

/** Functions without arguments. */
const NULLARY: Record<string, (v: Json) => Json[]> = {
  length: (v) => [length(v)],
  keys: (v) => [
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.keys(v).sort()
      : asArray(v, 'keys').map((_, i) => i),
  ],
  not: (v) => [!truthy(v)],
  first: (v) => [asArray(v, 'first')[0] ?? null],
  last: (v) => [asArray(v, 'last').at(-1) ?? null],
  sort: (v) => [[...asArray(v, 'sort')].sort(compare)],
  unique: (v) => [[...asArray(v, 'unique')].sort(compare).filter((x, i, a) => i === 0 || compare(a[i - 1], x) !== 0)],
  add: (v) => [asArray(v, 'add').reduce<Json>((acc, x) => add(acc, x), null)],
  min: (v) => [[...asArray(v, 'min')].sort(compare)[0] ?? null],
  max: (v) => [[...asArray(v, 'max')].sort(compare).at(-1) ?? null],
  any: (v) => [asArray(v, 'any').some(truthy)],
  all: (v) => [asArray(v, 'all').every(truthy)],
  tostring: (v) => [typeof v === 'string' ? v : JSON.stringify(v)],
  tonumber: (v) => {
    const n = typeof v === 'number' ? v : Number(asString(v, 'tonumber'));
    if (Number.isNaN(n)) throw new JqError(`cannot parse ${JSON.stringify(v)} as a number`);
    return [n];
  },
  ascii_downcase: (v) => [asString(v, 'ascii_downcase').toLowerCase()],
  ascii_upcase: (v) => [asString(v, 'ascii_upcase').toUpperCase()],
  type: (v) => [typeOf(v)],
  empty: () => [],
  values: (v) => (v === null ? [] : [v]),
  to_entries: (v) => [
    Object.entries(v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {}).map(([key, value]) => ({
      key,
      value,
    })),
  ],
  from_entries: (v) => [
    Object.fromEntries(
      asArray(v, 'from_entries').map((e) => {
        const o = e !== null && typeof e === 'object' && !Array.isArray(e) ? e : {};
        const k = o.key ?? o.name ?? o.k ?? null;
        return [typeof k === 'string' ? k : JSON.stringify(k), o.value ?? o.v ?? null];
      }),
    ),
  ],
};

/** Functions with one argument (a filter, evaluated against the same input). */
const UNARY: Record<string, (v: Json, arg: Filter) => Json[]> = {
  select: (v, f) => (f(v).some(truthy) ? [v] : []),
  map: (v, f) => [iterate(v, false).flatMap(f)],
  has: (v, f) =>
    f(v).map((k) =>
      Array.isArray(v)
        ? typeof k === 'number' && k >= 0 && k < v.length
        : v !== null && typeof v === 'object' && typeof k === 'string' && Object.hasOwn(v, k),
    ),
  join: (v, f) =>
    f(v).map((s) =>
      asArray(v, 'join')
        .map((x) => (x === null ? '' : typeof x === 'string' ? x : JSON.stringify(x)))
        .join(asString(s, 'join')),
    ),
  sort_by: (v, f) => [[...asArray(v, 'sort_by')].sort((a, b) => compare(f(a), f(b)))],
  startswith: (v, f) => f(v).map((s) => asString(v, 'startswith').startsWith(asString(s, 'startswith'))),
  endswith: (v, f) => f(v).map((s) => asString(v, 'endswith').endsWith(asString(s, 'endswith'))),
  test: (v, f) => f(v).map((re) => new RegExp(asString(re, 'test')).test(asString(v, 'test'))),
  contains: (v, f) => f(v).map((x) => contains(v, x)),
};

function contains(a: Json, b: Json): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.includes(b);
  if (Array.isArray(a) && Array.isArray(b)) return b.every((y) => a.some((x) => contains(x, y)));
  if (
    a !== null &&
    b !== null &&
    typeof a === 'object' &&
    typeof b === 'object' &&
    !Array.isArray(a) &&
    !Array.isArray(b)
  )
    return Object.entries(b).every(([k, y]) => Object.hasOwn(a, k) && contains(a[k], y));
  return compare(a, b) === 0;
}

/** A recursive-descent parser that compiles straight to filters. */
class Parser {
  private at = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(text?: string): Token | undefined {
    const t = this.tokens[this.at];
    return text === undefined || t?.text === text ? t : undefined;
  }
  private take(text: string): boolean {
    if (this.tokens[this.at]?.text === text && this.tokens[this.at].kind !== 'str') {
      this.at++;
      return true;
    }
    return false;
  }
  private expect(text: string): void {
    if (!this.take(text)) throw new JqError(`expected "${text}" ${this.where()}`);
  }
  private where(): string {
    const t = this.tokens[this.at];
    return t ? `at "${t.text}"` : 'at the end';
  }

  parse(): Filter {
    const f = this.pipe();
    if (this.at < this.tokens.length) throw new JqError(`unexpected "${this.tokens[this.at].text}"`);
    return f;
  }

  private pipe(): Filter {
    const left = this.comma();
    if (!this.take('|')) return left;
    const right = this.pipe();
    return (v) => left(v).flatMap(right);
  }

  private comma(): Filter {
    let f = this.alternative();
    while (this.take(',')) {
      const [a, b] = [f, this.alternative()];
      f = (v) => [...a(v), ...b(v)];
    }
    return f;
  }

  private alternative(): Filter {
    const left = this.or();
    if (!this.take('//')) return left;
    const right = this.alternative();
    return (v) => {
      const found = left(v).filter(truthy);
      return found.length > 0 ? found : right(v);
    };
  }

  private or(): Filter {
    let f = this.and();
    while (this.peek()?.kind === 'id' && this.take('or')) {
      const [a, b] = [f, this.and()];
      f = (v) => a(v).flatMap((x) => (truthy(x) ? [true] : b(v).map(truthy)));
    }
    return f;
  }

  private and(): Filter {
    let f = this.comparison();
    while (this.peek()?.kind === 'id' && this.take('and')) {
      const [a, b] = [f, this.comparison()];
      f = (v) => a(v).flatMap((x) => (truthy(x) ? b(v).map(truthy) : [false]));
    }
    return f;
  }

  private comparison(): Filter {
    const left = this.additive();
    const op = ['==', '!=', '<', '<=', '>', '>='].find((o) => this.peek(o));
    if (!op) return left;
    this.at++;
    const right = this.additive();
    const test: Record<string, (c: number) => boolean> = {
      '==': (c) => c === 0,
      '!=': (c) => c !== 0,
      '<': (c) => c < 0,
      '<=': (c) => c <= 0,
      '>': (c) => c > 0,
      '>=': (c) => c >= 0,
    };
    return (v) => right(v).flatMap((r) => left(v).map((l) => test[op](compare(l, r))));
  }

  private additive(): Filter {
    let f = this.postfix();
    for (;;) {
      const op = this.take('+') ? '+' : this.take('-') ? '-' : undefined;
      if (!op) return f;
      const [a, b] = [f, this.postfix()];
      f = (v) =>
        b(v).flatMap((r) =>
          a(v).map((l) => {
            if (op === '+') return add(l, r);
            if (typeof l === 'number' && typeof r === 'number') return l - r;
            if (Array.isArray(l) && Array.isArray(r)) return l.filter((x) => !r.some((y) => compare(x, y) === 0));
            throw new JqError(`cannot subtract ${typeOf(r)} from ${typeOf(l)}`);
          }),
        );
    }
  }

  /** A term followed by any number of `.name`, `[...]` and `?`. */
  private postfix(): Filter {
    let f = this.term();
    for (;;) {
      if (this.peek('.') && this.tokens[this.at + 1] && ['id', 'str'].includes(this.tokens[this.at + 1].kind)) {
        this.at++;
        f = this.chain(f, this.fieldName());
      } else if (this.peek('[')) {
        f = this.bracket(f);
      } else return f;
    }
  }

  private fieldName(): Filter {
    const t = this.tokens[this.at++];
    const key = t.kind === 'str' ? (JSON.parse(t.text) as string) : t.text;
    const optional = this.take('?');
    return (v) => index(v, key, optional);
  }

  private chain(f: Filter, g: Filter): Filter {
    return (v) => f(v).flatMap(g);
  }

  private bracket(f: Filter): Filter {
    this.expect('[');
    if (this.take(']')) {
      const optional = this.take('?');
      return this.chain(f, (v) => iterate(v, optional));
    }
    const key = this.pipe();
    this.expect(']');
    const optional = this.take('?');
    return (v) => f(v).flatMap((x) => key(v).flatMap((k) => index(x, k, optional)));
  }

  private term(): Filter {
    const t = this.tokens[this.at];
    if (!t) throw new JqError('the expression ends too early');
    if (t.kind === 'num') {
      this.at++;
      const n = Number(t.text);
      return () => [n];
    }
    if (t.kind === 'str') {
      this.at++;
      const s = JSON.parse(t.text) as string;
      return () => [s];
    }
    if (this.take('.')) {
      const next = this.tokens[this.at];
      if (
        next &&
        (next.kind === 'id' || next.kind === 'str') &&
        !(next.kind === 'id' && ['and', 'or'].includes(next.text))
      )
        return this.fieldName();
      return (v) => [v];
    }
    if (this.take('-')) {
      const inner = this.postfix();
      return (v) =>
        inner(v).map((x) => {
          if (typeof x !== 'number') throw new JqError(`cannot negate ${typeOf(x)}`);
          return -x;
        });
    }
    if (this.take('(')) {
      const inner = this.pipe();
      this.expect(')');
      return inner;
    }
    if (this.take('[')) {
      if (this.take(']')) return () => [[]];
      const inner = this.pipe();
      this.expect(']');
      return (v) => [inner(v)];
    }
    if (this.take('{')) return this.object();
    if (t.kind === 'id') {
      this.at++;
      if (t.text === 'true' || t.text === 'false') return () => [t.text === 'true'];
      if (t.text === 'null') return () => [null];
      if (this.take('(')) {
        const fn = UNARY[t.text];
        if (!fn) throw new JqError(`unknown function ${t.text}/1`);
        const arg = this.pipe();
        this.expect(')');
        return (v) => fn(v, arg);
      }
      const fn = NULLARY[t.text];
      if (!fn) throw new JqError(`unknown function ${t.text}`);
      return fn;
    }
    throw new JqError(`unexpected "${t.text}"`);
  }

  private object(): Filter {
    const entries: [Filter, Filter][] = [];
    if (!this.take('}')) {
      do {
        const t = this.tokens[this.at++];
        if (!t) throw new JqError('the object ends too early');
        let key: Filter;
        let name: string | undefined;
        if (t.kind === 'id') [key, name] = [() => [t.text], t.text];
        else if (t.kind === 'str') {
          name = JSON.parse(t.text) as string;
          const k = name;
          key = () => [k];
        } else if (t.text === '(') {
          key = this.pipe();
          this.expect(')');
        } else throw new JqError(`unexpected "${t.text}" in an object`);
        if (this.take(':')) entries.push([key, this.alternativeNoComma()]);
        else if (name !== undefined) {
          const field = name;
          entries.push([key, (v) => index(v, field, false)]);
        } else throw new JqError('a computed key needs a value');
      } while (this.take(','));
      this.expect('}');
    }
    return (v) => {
      let results: Record<string, Json>[] = [{}];
      for (const [key, value] of entries) {
        const next: Record<string, Json>[] = [];
        for (const partial of results)
          for (const k of key(v))
            for (const x of value(v)) next.push({ ...partial, [typeof k === 'string' ? k : JSON.stringify(k)]: x });
        results = next;
      }
      return results;
    };
  }

  /** An object value: everything but a top-level comma (which separates entries). */
  private alternativeNoComma(): Filter {
    const left = this.alternative();
    if (!this.take('|')) return left;
    const right = this.alternativeNoComma();
    return (v) => left(v).flatMap(right);
  }
}

/** Compiles `expr` once (a usage error when it is not valid); the filter gives every result. */
export function compileJq(expr: string): (input: unknown) => Json[] {
  const filter = new Parser(tokenize(expr)).parse();
  return (input) => filter(JSON.parse(JSON.stringify(input ?? null)) as Json);
}

/** The results as printed: strings raw (as `jq -r` and `gh --jq`), anything else as JSON. */
export function renderJqResults(results: Json[]): string {
  return results.map((r) => (typeof r === 'string' ? r : JSON.stringify(r, null, 2))).join('\n');
}
