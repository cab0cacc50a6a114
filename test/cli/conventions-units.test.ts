import { describe, expect, it } from 'vitest';
import { apiBody, apiPath, apiQuery, parseFields } from '../../src/cli/api-request.js';
import { dispatch } from '../../src/cli/dispatch.js';
import { compileJq, renderJqResults } from '../../src/cli/jq.js';
import { renderYaml } from '../../src/cli/output.js';

const jq = (expr: string, input: unknown) => compileJq(expr)(input);

describe('--jq (the built-in subset)', () => {
  const list = [
    { id: 'ws-1', attributes: { name: 'web', locked: true, 'tag-names': ['a', 'b'] } },
    { id: 'ws-2', attributes: { name: 'db', locked: false, 'tag-names': [] } },
  ];

  it('paths, iteration, pipes, commas and indexes', () => {
    expect(jq('.[].attributes.name', list)).toEqual(['web', 'db']);
    expect(jq('.[0].id, .[-1].id', list)).toEqual(['ws-1', 'ws-2']);
    expect(jq('.[1] | .attributes["name"]', list)).toEqual(['db']);
    expect(jq('.[] | .attributes."tag-names"[]', list)).toEqual(['a', 'b']);
    expect(jq('.nope.deeper', {})).toEqual([null]);
  });

  it('select, map, length, construction, comparisons and functions', () => {
    expect(jq('.[] | select(.attributes.locked) | .id', list)).toEqual(['ws-1']);
    expect(jq('map(.attributes.name) | sort | join(",")', list)).toEqual(['db,web']);
    expect(jq('[.[] | select(.attributes.name == "db" or .attributes.locked)] | length', list)).toEqual([2]);
    expect(jq('.[] | {name: .attributes.name, id}', list)).toEqual([
      { name: 'web', id: 'ws-1' },
      { name: 'db', id: 'ws-2' },
    ]);
    expect(jq('.[] | select(.attributes.name | startswith("w")) | .id', list)).toEqual(['ws-1']);
    expect(jq('[.[].attributes."tag-names" | length] | add', list)).toEqual([2]);
    expect(jq('.missing // "default"', {})).toEqual(['default']);
    expect(jq('keys', { b: 1, a: 2 })).toEqual([['a', 'b']]);
    expect(jq('sort_by(.attributes.name) | first | .id', list)).toEqual(['ws-2']);
  });

  it('prints strings raw and other values as JSON', () => {
    expect(renderJqResults(['web', 3, { a: 1 }])).toBe('web\n3\n{\n  "a": 1\n}');
  });

  it('a syntax error or an unknown function is a usage error naming --jq', () => {
    expect(() => compileJq('.[] | sel(.x)')).toThrow(/--jq: unknown function sel\/1/);
    expect(() => compileJq('.a |')).toThrow(/--jq/);
    expect(() => compileJq('{a: }')).toThrow(/--jq/);
    expect(() => jq('.[]', 3)).toThrow(/cannot iterate over number/);
  });
});

describe('command dispatch: help, aliases, did you mean', () => {
  const ids = ['workspace:list', 'workspace:show', 'workspace:delete', 'workspace:tags:remove', 'org:list', 'version'];

  it('help WORDS becomes WORDS --help, with aliases resolved', () => {
    expect(dispatch(['help'], ids)).toEqual({ argv: ['--help'] });
    expect(dispatch(['help', 'workspace'], ids)).toEqual({ argv: ['workspace', '--help'] });
    expect(dispatch(['help', 'ws', 'ls'], ids)).toEqual({ argv: ['workspace', 'list', '--help'] });
  });

  it('aliases name command words only, never arguments', () => {
    expect(dispatch(['ws', 'ls', '--json'], ids)).toEqual({ argv: ['workspace', 'list', '--json'] });
    expect(dispatch(['ws', 'rm', 'ls'], ids)).toEqual({ argv: ['workspace', 'delete', 'ls'] });
    expect(dispatch(['ws', 'tags', 'rm', 'web', 'x'], ids)).toEqual({
      argv: ['workspace', 'tags', 'remove', 'web', 'x'],
    });
    expect(dispatch(['workspace', 'show', 'ls'], ids)).toEqual({ argv: ['workspace', 'show', 'ls'] });
  });

  it('a mistyped command gets suggestions and the help to run', () => {
    const r = dispatch(['workspace', 'lst'], ids);
    expect(r).toEqual({
      error:
        '"workspace lst" is not a berth command. Did you mean "berth workspace list"? Run "berth help workspace" for the list.',
    });
    expect(dispatch(['wrkspace', 'list'], ids)).toMatchObject({ error: expect.stringContaining('"berth workspace"') });
    expect(dispatch(['zzz'], ids)).toEqual({ error: '"zzz" is not a berth command. Run "berth help" for the list.' });
  });

  it('a topic alone, flags first, or nothing at all are left to oclif', () => {
    expect(dispatch(['workspace'], ids)).toEqual({ argv: ['workspace'] });
    expect(dispatch(['--version'], ids)).toEqual({ argv: ['--version'] });
    expect(dispatch([], ids)).toEqual({ argv: [] });
  });
});

describe('berth api fields', () => {
  it('typed and raw fields nest by brackets into a body', () => {
    const fields = parseFields(
      ['data[attributes][auto-apply]=true', 'n=3'],
      ['data[type]=workspaces', 's=true'],
      () => '',
    );
    expect(apiBody(fields)).toEqual({
      data: { attributes: { 'auto-apply': true }, type: 'workspaces' },
      n: 3,
      s: 'true',
    });
    expect(apiBody(parseFields([], ['tags[]=a', 'tags[]=b'], () => ''))).toEqual({ tags: ['a', 'b'] });
  });
  it('fields as a query, paths relative to /api/v2', () => {
    expect(
      apiQuery(
        '/x?a=1',
        parseFields([], ['search[name]=web'], () => ''),
      ),
    ).toBe('/x?a=1&search%5Bname%5D=web');
    expect(apiPath('organizations')).toBe('/organizations');
    expect(apiPath('/api/v2/organizations?x=1')).toBe('/organizations?x=1');
    expect(() => parseFields(['novalue'], [], () => '')).toThrow(/KEY=VALUE/);
  });
});

describe('--output yaml', () => {
  it('renders the JSON data as block YAML, quoting what a plain scalar would misread', () => {
    expect(
      renderYaml({
        id: 'ws-1',
        attributes: { name: 'web', locked: false, tags: ['a', 'yes'], at: '2026-01-01T00:00:00Z', none: null, e: [] },
      }),
    ).toBe(
      [
        'id: ws-1',
        'attributes:',
        '  name: web',
        '  locked: false',
        '  tags:',
        '    - a',
        '    - "yes"',
        '  at: "2026-01-01T00:00:00Z"',
        '  none: null',
        '  e: []',
      ].join('\n'),
    );
    expect(renderYaml([{ a: 1, b: 'x' }])).toBe('- a: 1\n  b: x');
  });
});
