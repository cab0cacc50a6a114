import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalNumber, hclLeaves, sensitiveValues } from '../../src/domain/variables/hcl-leaves.js';
import { hclString } from '../../src/domain/variables/variable.js';

/**
 * Issue 42, item 6: the leaves of a sensitive HCL value, which terraform prints one by one (a
 * plan shows `inner = "s3cret"`, never the stored `{ inner = "s3cret" }`). The examples' expected
 * forms are what terraform 1.11 printed for them in a plan's output changes.
 */

describe('hclLeaves', () => {
  it("gives an object's string and number values, decoded as terraform prints them, not its keys", () => {
    const value = `{
      inner = "s3cret\\u00e9"   # a comment "not-a-leaf"
      "quoted key" = 1.50
      big: 1e3, neg = -2.5e-3 /* "nor-this" */
      list = ["q\\"uote", 7, true, null]
      nested = { deep = "x$\${y}z" }
    }`;
    expect(hclLeaves(value).sort()).toEqual(
      ['s3creté', '1.50', '1.5', '1e3', '1000', '2.5e-3', '0.0025', 'q"uote', '7', 'x${y}z'].sort(),
    );
  });

  it("gives a heredoc's text (indentation of <<- removed) and a constant template's value", () => {
    const value = '{ h = <<-EOT\n    line one\n      line two ${"in"}\n    EOT\n  t = "a${"b"}c" }';
    // Without the final line break: the log's next line would be joined to the concealed text.
    expect(hclLeaves(value)).toEqual(['line one\n  line two in', 'abc']);
    expect(hclLeaves('<<EOT\nplain\nEOT')).toEqual(['plain']);
  });

  it("gives a template's literal pieces when its value depends on more than literals; never a blank", () => {
    expect(hclLeaves('"head-${upper("mid")}-tail"')).toEqual(['head-', 'mid', '-tail']);
    expect(hclLeaves('<<EOT\n${"a"}${x}\n${"b"}\nEOT')).toEqual(['a', 'b']);
    expect(hclLeaves('{ a = "", b = "  " }')).toEqual([]);
  });

  it('a key is only what stands before = or : at the start of an entry', () => {
    expect(hclLeaves('{ k = c ? "yes" : "no" }').sort()).toEqual(['no', 'yes']);
    expect(hclLeaves('["a", "b"]')).toEqual(['a', 'b']);
    expect(hclLeaves('{ "k" = "v"\n "k2": "v2" }')).toEqual(['v', 'v2']);
  });

  it('reads broken text without throwing, keeping what it read', () => {
    expect(hclLeaves('{ a = "unterminated')).toEqual(['unterminated']);
    expect(hclLeaves('<<EOT\nno end')).toEqual(['no end']);
    expect(hclLeaves('"\\u12"')).toEqual(['\\u12']);
    expect(hclLeaves('1e999999999')).toEqual(['1e999999999']);
  });

  it('sensitiveValues: each sensitive value as stored, and the leaves of the HCL ones', () => {
    expect(
      sensitiveValues([
        { value: '{ inner = "s3cret" }', sensitive: true, hcl: true },
        { value: '{ shown = "public" }', sensitive: false, hcl: true },
        { value: 'plain-secret', sensitive: true },
        { value: '"not parsed"', sensitive: true, hcl: false },
      ]),
    ).toEqual(['{ inner = "s3cret" }', 's3cret', 'plain-secret', '"not parsed"']);
  });
});

describe('canonicalNumber', () => {
  it('writes a literal as terraform prints the number: decimal, no exponent, no needless zeros', () => {
    expect(['0.000', '1.5e-3', '12.34e1', '007', '1e3', '100', '2.50'].map(canonicalNumber)).toEqual([
      '0',
      '0.0015',
      '123.4',
      '7',
      '1000',
      '100',
      '2.5',
    ]);
  });

  it('agrees with the number the literal stands for', () => {
    const literal = fc
      .tuple(fc.stringMatching(/^\d{1,6}$/), fc.option(fc.stringMatching(/^\d{0,5}$/)), fc.integer({ min: -8, max: 8 }))
      .map(([i, f, e]) => `${i}${f === null ? '' : `.${f}`}${e === 0 ? '' : `e${e}`}`);
    fc.assert(
      fc.property(literal, (lit) => {
        const out = canonicalNumber(lit);
        expect(out).toMatch(/^(0|[1-9]\d*)(\.\d*[1-9])?$/);
        expect(Number(out)).toBeCloseTo(Number(lit), 10);
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Any value, written in any of the ways HCL allows: its leaves are all found, its keys never.

type Value =
  | { t: 'str'; v: string; heredoc?: boolean }
  | { t: 'num'; v: string }
  | { t: 'lit'; v: string }
  | { t: 'list'; v: Value[] }
  | { t: 'obj'; v: [string, Value][] };

const key = fc.oneof(fc.stringMatching(/^k[a-z0-9_]{0,6}$/), fc.string({ minLength: 1, maxLength: 8 }));
const value: fc.Arbitrary<Value> = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ unit: 'grapheme', maxLength: 12 }).map((v): Value => ({ t: 'str', v })),
    // Lines, which may be written as a heredoc.
    fc
      .array(fc.stringMatching(/^[ a-zA-Z0-9"\\#=]{0,10}$/), { minLength: 1, maxLength: 3 })
      .map((lines): Value => ({ t: 'str', v: `${lines.join('\n')}\n` })),
    fc.stringMatching(/^(0|[1-9]\d{0,5})(\.\d{1,3})?([eE][+-]?\d)?$/).map((v): Value => ({ t: 'num', v })),
    fc.constantFrom('true', 'false', 'null').map((v): Value => ({ t: 'lit', v })),
    fc.array(tie('value'), { maxLength: 4 }).map((v): Value => ({ t: 'list', v })),
    fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map((v): Value => ({ t: 'obj', v })),
  ),
})).value;

/** Between tokens: spaces, maybe a comment. */
const gaps = fc.array(fc.constantFrom(' ', '', '  ', ' /* "c" 1 */ ', '\t'), { minLength: 40, maxLength: 40 });

function render(v: Value, gap: () => string, heredoc: () => boolean): string {
  switch (v.t) {
    case 'str':
      // A heredoc when its text allows one (ends with a line break, no template sequence).
      v.heredoc = heredoc() && v.v.endsWith('\n') && !/[$%]\{|\r|^\s*EOT\s*$/m.test(v.v);
      return v.heredoc ? `<<EOT\n${v.v}EOT\n` : hclString(v.v);
    case 'num':
    case 'lit':
      return v.v;
    case 'list':
      return `[${gap()}${v.v.map((x) => render(x, gap, heredoc)).join(`${gap()},${gap()}`)}${gap()}]`;
    case 'obj': {
      const entries = v.v.map(([k, x]) => {
        const name = /^k[a-z0-9_]*$/.test(k) ? k : hclString(k);
        return `${name}${gap()}${heredoc() ? '=' : ':'}${gap()}${render(x, gap, heredoc)}`;
      });
      // Entries end with a comma or a line break (a heredoc ends with its own).
      return `{${gap()}${entries.map((e) => `${e}${e.endsWith('\n') ? '' : heredoc() ? ',' : '\n'}`).join(gap())}}`;
    }
  }
}

function leavesOf(v: Value, out: { leaves: Set<string>; keys: Set<string> }) {
  // A heredoc's leaf is its text without the final line break.
  if (v.t === 'str' && v.v.trim() !== '') out.leaves.add(v.heredoc ? v.v.slice(0, -1) : v.v);
  if (v.t === 'num') out.leaves.add(v.v).add(canonicalNumber(v.v));
  if (v.t === 'list') for (const x of v.v) leavesOf(x, out);
  if (v.t === 'obj')
    for (const [k, x] of v.v) {
      out.keys.add(k);
      leavesOf(x, out);
    }
  return out;
}

describe('hclLeaves of any value', () => {
  it('finds every string and number leaf, and no key that is not also a leaf', () => {
    fc.assert(
      fc.property(value, gaps, fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }), (v, g, h) => {
        let gi = 0;
        let hi = 0;
        const text = render(
          v,
          () => g[gi++ % g.length],
          () => h[hi++ % h.length],
        );
        const found = new Set(hclLeaves(text));
        const { leaves, keys } = leavesOf(v, { leaves: new Set(), keys: new Set() });
        for (const leaf of leaves) expect(found, `${leaf} in ${text}`).toContain(leaf);
        for (const k of keys) if (!leaves.has(k)) expect(found, `key ${k} in ${text}`).not.toContain(k);
      }),
      { numRuns: 500 },
    );
  });
});
