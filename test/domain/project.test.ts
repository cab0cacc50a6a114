import { describe, expect, it } from 'vitest';
import { BerthError } from '../../src/domain/common/errors.js';
import { parseProjectInput } from '../../src/domain/projects/project.js';

const parse = (
  attributes: Record<string, unknown>,
  relationships: Record<string, unknown> = {},
  mode: 'create' | 'update' = 'create',
) => parseProjectInput({ attributes, relationships }, mode);

function problemsOf(fn: () => unknown): { pointer?: string; detail?: string }[] {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(BerthError);
    return (err as BerthError).items.map(({ pointer, detail }) => ({ pointer, detail }));
  }
  throw new Error('expected a BerthError');
}

describe('parseProjectInput', () => {
  it('leaves every field undefined on an empty update', () => {
    expect(parse({}, {}, 'update')).toEqual({
      name: undefined,
      description: undefined,
      autoDestroyActivityDuration: undefined,
      tagBindings: undefined,
    });
  });

  it('requires the name on create only', () => {
    expect(problemsOf(() => parse({}))).toEqual([{ pointer: '/data/attributes/name', detail: "Name can't be blank" }]);
  });

  it('keeps explicit nulls (they clear) and reads inline bindings with empty values', () => {
    const input = parse(
      { name: 'abc', description: null, 'auto-destroy-activity-duration': null },
      {
        'tag-bindings': { data: [{ type: 'tag-bindings', attributes: { key: 'k' } }] },
      },
    );
    expect(input).toEqual({
      name: 'abc',
      description: null,
      autoDestroyActivityDuration: null,
      tagBindings: [{ key: 'k', value: '' }],
    });
  });

  it('rejects a tag-bindings relationship that is not an object', () => {
    expect(problemsOf(() => parse({ name: 'abc' }, { 'tag-bindings': [] }))).toEqual([
      {
        pointer: '/data/relationships/tag-bindings',
        detail: 'Tag bindings relationship must be an object with a data array',
      },
    ]);
    expect(problemsOf(() => parse({ name: 'abc' }, { 'tag-bindings': {} }))).toEqual([
      { pointer: '/data/relationships/tag-bindings/data', detail: 'Tag bindings must be an array' },
    ]);
  });

  it('reports attribute and tag problems together', () => {
    const problems = problemsOf(() =>
      parse(
        { name: ' ab' },
        { 'tag-bindings': { data: [{ type: 'tag-bindings', attributes: { key: 'hc:x', value: 'a b' } }] } },
      ),
    );
    expect(problems).toEqual([
      { pointer: '/data/attributes/name', detail: 'Name must not start or end with a space' },
      {
        pointer: '/data/relationships/tag-bindings/data/0/attributes/key',
        detail: 'Key is invalid: the prefixes hc: and hcp: are reserved',
      },
      {
        pointer: '/data/relationships/tag-bindings/data/0/attributes/value',
        detail: 'Value is invalid: only letters, numbers and _ . = + - @ : are allowed',
      },
    ]);
  });

  it('reports a name that is both too long and has bad characters twice', () => {
    expect(problemsOf(() => parse({ name: '!'.repeat(41) })).map((p) => p.detail)).toEqual([
      'Name is too long (maximum is 40 characters)',
      'Name may only contain letters, numbers, spaces, "-" and "_"',
    ]);
  });
});
