import { describe, expect, it } from 'vitest';
import { sensitiveValues } from '../../src/domain/variables/hcl-leaves.js';
import { CONCEALED, LogScrubber } from '../../src/runner/log-scrubber.js';

/** Sensitive values never reach a run's log, however terraform's output is cut into chunks. */
const through = (values: string[], chunks: string[]) => {
  const s = new LogScrubber(values);
  const out = chunks.map((c) => s.push(Buffer.from(c)).toString());
  return out.join('') + s.end().toString();
};

describe('LogScrubber', () => {
  const SECRET = 's3cr3t-value';

  it('replaces a value within one chunk, each time it appears', () => {
    expect(through([SECRET], [`a ${SECRET} b ${SECRET}\n`])).toBe(`a ${CONCEALED} b ${CONCEALED}\n`);
  });

  it('replaces a value split across chunks, at every split point', () => {
    const text = `before ${SECRET} after\n`;
    for (let i = 0; i <= text.length; i++)
      for (let j = i; j <= text.length; j++) {
        const got = through([SECRET], [text.slice(0, i), text.slice(i, j), text.slice(j)]);
        expect(got).toBe(`before ${CONCEALED} after\n`);
      }
    // One byte at a time.
    expect(through([SECRET], [...text])).toBe(`before ${CONCEALED} after\n`);
  });

  it('gives out everything else unchanged, holding back only a tail shorter than the longest value', () => {
    const s = new LogScrubber([SECRET]);
    const first = s.push(Buffer.from('0123456789abcdefghij')).toString();
    expect(first).toBe('0123456789abcdefghij'.slice(0, 20 - (SECRET.length - 1)));
    expect(first + s.end().toString()).toBe('0123456789abcdefghij');
  });

  it('the longest of overlapping values wins; each line of a multi-line value is replaced too', () => {
    expect(through(['abc', 'abcdef'], ['xabcdefx abcx'])).toBe(`x${CONCEALED}x ${CONCEALED}x`);
    const pem = 'line-one-secret\nline-two-secret';
    expect(through([pem], ['  line-two-secret\n'])).toBe(`  ${CONCEALED}\n`);
  });

  it('replaces a value as terraform quotes it: quotes, backslashes and line breaks escaped', () => {
    const value = 'pa"ss\\wo\nrd';
    expect(through([value], ['  + input = "pa\\"ss\\\\wo\\nrd"\n'])).toBe(`  + input = "${CONCEALED}"\n`);
    expect(through([value], [`raw ${value} end`])).toBe(`raw ${CONCEALED} end`);
  });

  it('without values, passes chunks through at once; an empty value conceals nothing', () => {
    const s = new LogScrubber(['']);
    expect(s.active).toBe(false);
    expect(s.push(Buffer.from('abc')).toString()).toBe('abc');
    expect(s.end().length).toBe(0);
  });

  it('conceals each leaf of a sensitive HCL value, as terraform prints them one by one (issue 42)', () => {
    const values = sensitiveValues([
      { value: '{ inner = "hcl-inner-secret", pin = 1.50e2, list = ["el-\\"one"] }', sensitive: true, hcl: true },
    ]);
    const plan =
      '  + creds = {\n      + inner = "hcl-inner-secret"\n      + list  = ["el-\\"one"]\n      + pin   = 150\n    }\n';
    expect(through(values, [plan])).toBe(
      `  + creds = {\n      + inner = "${CONCEALED}"\n      + list  = ["${CONCEALED}"]\n      + pin   = ${CONCEALED}\n    }\n`,
    );
  });

  it('works on bytes: a multi-byte value split inside a character', () => {
    const value = 'pässwörd-ünïcode';
    const bytes = Buffer.from(`x ${value} y`);
    const s = new LogScrubber([value]);
    const out = Buffer.concat([s.push(bytes.subarray(0, 5)), s.push(bytes.subarray(5)), s.end()]);
    expect(out.toString()).toBe(`x ${CONCEALED} y`);
  });
});
