/**
 * The string and number leaves of an HCL value (a variable stored with `hcl: true`), as terraform
 * prints them: a sensitive `{ inner = "s3cret" }` shows up in a plan as `inner = "s3cret"`, never
 * as the stored text, so the log scrubber and the redacted JSON plan conceal each leaf. Pure: no I/O.
 *
 * A lexer, not a parser: it reads every quoted string (escapes decoded, each literal part of a
 * template), heredoc and number literal, skipping comments, and leaves out only what is plainly
 * an object key (a name or a quoted string right after `{`, `,` or a line break, right before
 * `=` or `:`). Anything it does not understand is skipped, never an error: an expression terraform
 * refuses still has its literals concealed.
 */

/** The HCL escapes of a quoted string (`\uNNNN` and `\UNNNNNNNN` apart). */
const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };

// Sticky: matched where the lexer is, without copying the rest of the text.
const NAME = /[\p{L}\p{N}_-]+/uy;
const NUMBER = /\d*(?:\.\d*)?(?:[eE][+-]?\d+)?/y;
const HEREDOC = /<<(-?)([\p{L}_][\p{L}\p{N}_-]*)\r?\n/uy;

type Token =
  | { kind: 'text'; value: string; simple: boolean }
  | { kind: 'number'; value: string }
  | { kind: 'name' | 'punct' | 'newline'; value: string };

/**
 * A number literal as terraform prints it (cty's decimal form, no exponent): `1.50` is `1.5`,
 * `1e3` is `1000`. Exact, on the digits: no floating point.
 */
export function canonicalNumber(literal: string): string {
  const m = /^(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (!m) return literal;
  const whole = m[1] ?? '';
  const fraction = m[2] ?? '';
  const shift = Number(m[3] ?? '0');
  // Written out, a huge exponent would be as many zeros: the literal as written is concealed.
  if (Math.abs(shift) > 400) return literal;
  const digits = whole + fraction;
  // Where the decimal point falls in `digits`, after the exponent moved it.
  let point = whole.length + shift;
  let all = digits;
  if (point < 0) {
    all = '0'.repeat(-point) + all;
    point = 0;
  } else if (point > all.length) all = all + '0'.repeat(point - all.length);
  const int = all.slice(0, point).replace(/^0+/, '') || '0';
  const frac = all.slice(point).replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
}

class Lexer {
  readonly tokens: Token[] = [];
  private i = 0;

  constructor(private readonly s: string) {}

  /** Lexes until the end, or until the `}` closing an interpolation when `inTemplate`. */
  run(inTemplate = false): void {
    let depth = 0;
    while (this.i < this.s.length) {
      const c = this.s[this.i];
      const next = this.s[this.i + 1];
      if (c === '\n') {
        this.tokens.push({ kind: 'newline', value: '\n' });
        this.i++;
      } else if (c === ' ' || c === '\t' || c === '\r') this.i++;
      else if (c === '#' || (c === '/' && next === '/')) this.skipTo('\n', false);
      else if (c === '/' && next === '*') {
        this.i += 2;
        this.skipTo('*/', true);
      } else if (c === '"') {
        this.i++;
        this.template(true);
      } else if (c === '<' && next === '<' && this.heredoc()) continue;
      else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(next ?? ''))) this.number();
      else if (/[\p{L}_]/u.test(c)) {
        const m = this.match(NAME)!;
        this.tokens.push({ kind: 'name', value: m[0] });
        this.i += m[0].length;
      } else {
        if (c === '{') depth++;
        if (c === '}') {
          if (inTemplate && depth === 0) {
            this.i++;
            return;
          }
          depth--;
        }
        this.tokens.push({ kind: 'punct', value: c });
        this.i++;
      }
    }
  }

  /** `re` (sticky) matched at `this.i`. */
  private match(re: RegExp): RegExpExecArray | null {
    re.lastIndex = this.i;
    return re.exec(this.s);
  }

  private skipTo(end: string, past: boolean): void {
    const at = this.s.indexOf(end, this.i);
    this.i = at === -1 ? this.s.length : at + (past ? end.length : 0);
  }

  private number(): void {
    const m = this.match(NUMBER)!;
    this.tokens.push({ kind: 'number', value: m[0] });
    this.i += m[0].length;
  }

  /**
   * A template: a quoted one after its `"` (escapes decoded, up to its closing `"`), else a
   * heredoc's body (no escapes, the whole text): its literal parts, its interpolations lexed in
   * between; or, when each interpolation is a single literal (`"a${"b"}c"`), the one value
   * terraform makes of it (its pieces alone could be as short as `a`, concealing every `a` of a log).
   */
  template(quoted: boolean): void {
    const start = this.tokens.length;
    let part = '';
    let simple = true;
    // The template's value while every interpolation so far was one literal; null after any other.
    let whole: string | null = '';
    const flush = () => {
      this.tokens.push({ kind: 'text', value: part, simple });
      if (whole !== null) whole += part;
      part = '';
    };
    while (this.i < this.s.length) {
      const c = this.s[this.i];
      const next = this.s[this.i + 1];
      if (quoted && c === '"') {
        this.i++;
        break;
      }
      if (quoted && c === '\\') {
        const [decoded, length] = this.escape(next);
        part += decoded;
        this.i += length;
        continue;
      }
      if ((c === '$' || c === '%') && next === c && this.s[this.i + 2] === '{') {
        part += `${c}{`;
        this.i += 3;
        continue;
      }
      if ((c === '$' || c === '%') && next === '{') {
        simple = false;
        flush();
        this.i += 2;
        const from = this.tokens.length;
        this.run(true);
        const only = this.tokens.length === from + 1 ? this.tokens[from] : null;
        if (c === '%' || !only || (only.kind !== 'text' && only.kind !== 'number')) whole = null;
        else if (whole !== null) whole += only.kind === 'number' ? canonicalNumber(only.value) : only.value;
        continue;
      }
      if (quoted && c === '\n') break; // An unterminated string: what was read is still concealed.
      part += c;
      this.i++;
    }
    flush();
    if (!simple && whole !== null)
      this.tokens.splice(start, this.tokens.length - start, { kind: 'text', value: whole, simple });
  }

  /** The escape at the backslash `this.i` (`next` after it) decoded, and its length. */
  private escape(next: string | undefined): [string, number] {
    if (next === 'u' || next === 'U') {
      const n = next === 'u' ? 4 : 8;
      const hex = this.s.slice(this.i + 2, this.i + 2 + n);
      if (hex.length === n && /^[0-9a-fA-F]+$/.test(hex)) {
        const code = parseInt(hex, 16);
        return [code <= 0x10ffff ? String.fromCodePoint(code) : '', 2 + n];
      }
    }
    if (next === undefined) return ['\\', 1];
    return [ESCAPES[next] ?? `\\${next}`, 2];
  }

  /** A heredoc (`<<EOT` or `<<-EOT` and a line break); false when `<<` starts none. */
  private heredoc(): boolean {
    const m = this.match(HEREDOC);
    if (!m) return false;
    const strip = m[1] === '-';
    const marker = m[2];
    let at = this.i + m[0].length;
    const lines: string[] = [];
    for (;;) {
      const end = this.s.indexOf('\n', at);
      const line = this.s.slice(at, end === -1 ? this.s.length : end);
      if (line.trim() === marker || end === -1) {
        if (line.trim() !== marker) lines.push(line);
        this.i = end === -1 ? this.s.length : at + line.length;
        break;
      }
      lines.push(line);
      at = end + 1;
    }
    // `<<-`: the fewest leading spaces of any non-blank line go from every line.
    let indent = strip ? Infinity : 0;
    for (const l of lines) if (l.trim() !== '') indent = Math.min(indent, /^[ \t]*/.exec(l)![0].length);
    // Without its final line break, which tells nothing, and concealed would join the log's next line.
    const body = lines.map((l) => (Number.isFinite(indent) ? l.slice(indent) : l)).join('\n');
    // The body is a template too: its interpolations hold literals of their own.
    const inner = new Lexer(body);
    inner.template(false);
    this.tokens.push(...inner.tokens);
    return true;
  }
}

/** The string and number leaves of HCL value text (object keys left out), each once, none blank. */
export function hclLeaves(text: string): string[] {
  const lexer = new Lexer(text);
  lexer.run();
  const tokens = lexer.tokens;
  const leaves = new Set<string>();
  // Which bracket each token is inside of, to tell an object's keys.
  const open: string[] = [];
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.kind === 'punct') {
      if ('{[('.includes(t.value)) open.push(t.value);
      else if ('}])'.includes(t.value)) open.pop();
      continue;
    }
    if (t.kind === 'number') {
      leaves.add(t.value);
      leaves.add(canonicalNumber(t.value));
      continue;
    }
    if (t.kind !== 'text' || t.value === '') continue;
    if (t.simple && isKey(tokens, k, open)) continue;
    leaves.add(t.value);
  }
  // Blank ones apart: a heredoc's line break between two interpolations would conceal every line
  // break of the log, and hides nothing.
  return [...leaves].filter((v) => v.trim() !== '');
}

/** A quoted string at `k` is an object key: in braces, after `{`, `,` or a line break, before `=` or `:`. */
function isKey(tokens: Token[], k: number, open: string[]): boolean {
  if (open[open.length - 1] !== '{') return false;
  const before = tokens[k - 1];
  const after = tokens[k + 1];
  const starts =
    before === undefined || before.kind === 'newline' || (before.kind === 'punct' && '{,'.includes(before.value));
  return starts && after?.kind === 'punct' && (after.value === '=' || after.value === ':');
}

/**
 * Everything a run's log and its redacted JSON plan conceal of the given variables: each sensitive
 * value as stored, and, for an HCL one, each of its string and number leaves.
 */
export function sensitiveValues(variables: readonly { value: string; sensitive: boolean; hcl?: boolean }[]): string[] {
  const out = new Set<string>();
  for (const v of variables) {
    if (!v.sensitive) continue;
    if (v.value !== '') out.add(v.value);
    if (v.hcl) for (const leaf of hclLeaves(v.value)) out.add(leaf);
  }
  return [...out];
}
