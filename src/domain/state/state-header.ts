/**
 * Rewriting a state file's `serial` and `lineage` (a rollback's new version: the old content under
 * the current lineage and a higher serial) without touching any other byte. A state is not parsed
 * and written again: JSON.parse would round every number past 2^53 a provider stored (ids,
 * sizes) and reorder keys that look like integers; only the two top-level values are replaced.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const isSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** The index after the string that starts (with its quote) at `i`. */
function skipString(b: Buffer, i: number): number {
  for (i++; i < b.length; i++) {
    if (b[i] === BACKSLASH) i++;
    else if (b[i] === QUOTE) return i + 1;
  }
  return -1;
}

/** The index after the JSON value that starts at `i` (strings and brackets matched, literals to their end). */
function skipValue(b: Buffer, i: number): number {
  if (b[i] === QUOTE) return skipString(b, i);
  if (b[i] === OPEN_BRACE || b[i] === OPEN_BRACKET) {
    let depth = 0;
    while (i < b.length) {
      const c = b[i];
      if (c === QUOTE) {
        i = skipString(b, i);
        if (i < 0) return -1;
        continue;
      }
      if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return -1;
  }
  while (i < b.length && b[i] !== COMMA && b[i] !== CLOSE_BRACE && !isSpace(b[i])) i++;
  return i;
}

const skipSpace = (b: Buffer, i: number) => {
  while (isSpace(b[i])) i++;
  return i;
};

interface Span {
  start: number;
  end: number;
}

/**
 * Where the values of the top-level keys `serial` and `lineage` are, and where the object's first
 * member starts (for a key to add). Stops once both are found: Terraform writes them first. Null
 * when the text is not a JSON object as far as it was read.
 */
function locate(b: Buffer): { serial?: Span; lineage?: Span; open: number; empty: boolean } | null {
  let i = skipSpace(b, 0);
  if (b[i] !== OPEN_BRACE) return null;
  const open = i + 1;
  i = skipSpace(b, open);
  const found: { serial?: Span; lineage?: Span; open: number; empty: boolean } = { open, empty: b[i] === CLOSE_BRACE };
  while (i < b.length && b[i] !== CLOSE_BRACE) {
    if (b[i] !== QUOTE) return null;
    const keyEnd = skipString(b, i);
    if (keyEnd < 0) return null;
    let key: unknown;
    try {
      key = JSON.parse(b.toString('utf8', i, keyEnd));
    } catch {
      return null;
    }
    i = skipSpace(b, keyEnd);
    if (b[i] !== COLON) return null;
    i = skipSpace(b, i + 1);
    const end = skipValue(b, i);
    if (end < 0 || end === i) return null;
    if (key === 'serial' || key === 'lineage') found[key] = { start: i, end };
    if (found.serial && found.lineage) return found;
    i = skipSpace(b, end);
    if (b[i] === COMMA) i = skipSpace(b, i + 1);
    else if (b[i] !== CLOSE_BRACE) return null;
  }
  return b[i] === CLOSE_BRACE ? found : null;
}

/**
 * The state file `bytes` with its top-level `serial` set to `serial` and, unless `lineage` is
 * null, its `lineage` set to `lineage` (each added, at the object's start, when the file has none).
 * Every other byte stays as it was, a body that is not valid UTF-8 included. Null when the bytes
 * are not a JSON object. The caller parses the result: that reads the values back (a key written
 * twice, whose last value JSON.parse takes, is seen there).
 */
export function rewriteStateHeader(bytes: Buffer, serial: number, lineage: string | null): Buffer | null {
  const at = locate(bytes);
  if (!at) return null;
  const edits: { span: Span; text: string }[] = [];
  const added: string[] = [];
  const set = (key: 'serial' | 'lineage', value: string) => {
    const span = at[key];
    if (span) edits.push({ span, text: value });
    else added.push(`${JSON.stringify(key)}: ${value}`);
  };
  set('serial', String(serial));
  if (lineage !== null) set('lineage', JSON.stringify(lineage));
  if (added.length > 0)
    edits.push({
      span: { start: at.open, end: at.open },
      text: `\n  ${added.join(',\n  ')}${at.empty ? '\n' : ','}`,
    });
  edits.sort((x, y) => x.span.start - y.span.start);
  const parts: Buffer[] = [];
  let from = 0;
  for (const e of edits) {
    parts.push(bytes.subarray(from, e.span.start), Buffer.from(e.text, 'utf8'));
    from = e.span.end;
  }
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts);
}
