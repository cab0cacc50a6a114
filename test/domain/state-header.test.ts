import { describe, expect, it } from 'vitest';
import { rewriteStateHeader } from '../../src/domain/state/state-header.js';

const rewrite = (text: string, serial: number, lineage: string | null) =>
  rewriteStateHeader(Buffer.from(text), serial, lineage)?.toString() ?? null;

describe('rewriteStateHeader (a rollback’s serial and lineage)', () => {
  it('replaces only the top-level values, whatever the spacing', () => {
    expect(rewrite('{"serial":3,"lineage":"a","x":1}', 9, 'b')).toBe('{"serial":9,"lineage":"b","x":1}');
    expect(rewrite('{ "version" : 4 ,\n "serial" : 3 , "lineage"\t:\t"a" }', 10, 'b')).toBe(
      '{ "version" : 4 ,\n "serial" : 10 , "lineage"\t:\t"b" }',
    );
    // The lineage is left alone when none is given.
    expect(rewrite('{"serial":3,"lineage":"a"}', 4, null)).toBe('{"serial":4,"lineage":"a"}');
  });

  it('never touches nested keys of the same names, nor strings that hold them', () => {
    const text =
      '{"outputs":{"serial":{"value":"\\"serial\\": 1"}},"resources":[{"serial":2,"lineage":"r"}],"serial":5,"lineage":"top"}';
    expect(rewrite(text, 6, 'new')).toBe(text.replace('"serial":5,"lineage":"top"', '"serial":6,"lineage":"new"'));
  });

  it('adds the keys a state lacks, at the start of the object', () => {
    expect(JSON.parse(rewrite('{"version":4}', 1, 'l')!)).toEqual({ serial: 1, lineage: 'l', version: 4 });
    expect(JSON.parse(rewrite('{}', 1, 'l')!)).toEqual({ serial: 1, lineage: 'l' });
    expect(JSON.parse(rewrite('{"lineage":"l"}', 2, 'm')!)).toEqual({ serial: 2, lineage: 'm' });
  });

  it('escapes the lineage as JSON, and keeps bytes that are not UTF-8', () => {
    expect(JSON.parse(rewrite('{"serial":1,"lineage":"a"}', 2, 'quote"d')!).lineage).toBe('quote"d');
    const raw = Buffer.concat([Buffer.from('{"serial":1,"x":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const out = rewriteStateHeader(raw, 2, null)!;
    expect(out.subarray(out.length - 4)).toEqual(Buffer.from([0xff, 0xfe, 0x22, 0x7d]));
    expect(out.subarray(0, 11).toString()).toBe('{"serial":2');
  });

  it('refuses what is not a JSON object', () => {
    for (const text of ['[]', '"x"', '', '{"serial":', '{"a" 1}', '{"a":1 "b":2}'])
      expect(rewrite(text, 1, 'l')).toBe(null);
  });
});
