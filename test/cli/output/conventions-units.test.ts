import { describe, expect, it } from 'vitest';
import { apiBody, apiPath, apiQuery, parseFields } from '../../../src/cli/common/api-request.js';
import { dispatch } from '../../../src/cli/command-line/dispatch.js';
import { compileJq, JqFilterError, renderJqResults } from '../../../src/cli/output/jq-filter.js';
import { renderYaml } from '../../../src/cli/output/output.js';

/** What `--jq EXPR` prints for `input`, split into lines (one result a line; no result, no line). */
const jq = async (expr: string, input: unknown) => {
  const text = (await compileJq(expr))(input).text;
  return text === '' ? [] : text.split('\n');
};

describe('--jq (jq itself, jq-wasm)', () => {
  const list = [
    { id: 'ws-1', attributes: { name: 'web', locked: true, 'tag-names': ['a', 'b'], 'resource-count': 3 } },
    { id: 'ws-2', attributes: { name: 'db', locked: false, 'tag-names': [], 'resource-count': 1 } },
  ];

  it('paths, iteration, pipes, commas and indexes', async () => {
    expect(await jq('.[].attributes.name', list)).toEqual(['web', 'db']);
    expect(await jq('.[0].id, .[-1].id', list)).toEqual(['ws-1', 'ws-2']);
    expect(await jq('.[1] | .attributes["name"]', list)).toEqual(['db']);
    expect(await jq('.[] | .attributes."tag-names"[]', list)).toEqual(['a', 'b']);
    expect(await jq('.nope.deeper', {})).toEqual(['null']);
  });

  it('select, map, length, construction, comparisons and functions', async () => {
    expect(await jq('.[] | select(.attributes.locked) | .id', list)).toEqual(['ws-1']);
    expect(await jq('map(.attributes.name) | sort | join(",")', list)).toEqual(['db,web']);
    expect(await jq('[.[] | select(.attributes.name == "db" or .attributes.locked)] | length', list)).toEqual(['2']);
    expect(await jq('[.[] | {name: .attributes.name, id}]', list)).toEqual(
      JSON.stringify(
        [
          { name: 'web', id: 'ws-1' },
          { name: 'db', id: 'ws-2' },
        ],
        null,
        2,
      ).split('\n'),
    );
    expect(await jq('.[] | select(.attributes.name | startswith("w")) | .id', list)).toEqual(['ws-1']);
    expect(await jq('[.[].attributes."tag-names" | length] | add', list)).toEqual(['2']);
    expect(await jq('.missing // "default"', {})).toEqual(['default']);
    expect(await jq('keys', { b: 1, a: 2 })).toEqual(JSON.stringify(['a', 'b'], null, 2).split('\n'));
    expect(await jq('sort_by(.attributes.name) | first | .id', list)).toEqual(['ws-2']);
  });

  it('what the subset lacked: interpolation, @tsv, @csv, @sh, @base64, split, .., paths, reduce, group_by, try', async () => {
    expect(await jq('.[] | "\\(.attributes.name) has \\(.attributes."resource-count") resources"', list)).toEqual([
      'web has 3 resources',
      'db has 1 resources',
    ]);
    expect(await jq('.[] | [.id, .attributes.name, .attributes.locked] | @tsv', list)).toEqual([
      'ws-1\tweb\ttrue',
      'ws-2\tdb\tfalse',
    ]);
    expect(await jq('.[] | [.attributes.name, "a \\"b\\", c", .attributes."resource-count"] | @csv', list)).toEqual([
      '"web","a ""b"", c",3',
      '"db","a ""b"", c",1',
    ]);
    expect(await jq('[.[].attributes.name] | @sh', list)).toEqual(["'web' 'db'"]);
    expect(await jq('.[0].id | @base64', list)).toEqual(['d3MtMQ==']);
    expect(await jq('.[1].id | split("-") | .[1]', list)).toEqual(['2']);
    expect(await jq('[.. | numbers] | add', list)).toEqual(['4']);
    expect(await jq('[paths(type == "boolean")] | map(join("/")) | .[]', list)).toEqual([
      '0/attributes/locked',
      '1/attributes/locked',
    ]);
    expect(await jq('reduce .[] as $w (0; . + $w.attributes."resource-count")', list)).toEqual(['4']);
    expect(await jq('group_by(.attributes.locked) | map(map(.id) | join(" ")) | .[]', list)).toEqual(['ws-2', 'ws-1']);
    expect(await jq('.[0].attributes | to_entries[] | select(.value == true) | .key', list)).toEqual(['locked']);
    expect(await jq('.[] | try error("no \\(.id)") catch .', list)).toEqual(['no ws-1', 'no ws-2']);
  });

  it('prints strings raw, each result on its own line, other values as JSON; leading empty results are kept', async () => {
    expect(renderJqResults(['web', 3, { a: 1 }])).toBe('web\n3\n{\n  "a": 1\n}');
    expect((await compileJq('"", "b", " c "')).call(null, null).text).toBe('\nb\n c ');
    expect((await compileJq('.')).call(null, 'a string')).toEqual({ text: 'a string', warnings: '' });
  });

  it("a filter that is not jq is refused when compiled, with jq's message naming --jq", async () => {
    await expect(compileJq('.[] | sel(.x)')).rejects.toThrow(/^--jq: sel\/1 is not defined at line 1, column 7/);
    await expect(compileJq('.a |')).rejects.toThrow(/^--jq: syntax error, unexpected end of file at line 1/);
    await expect(compileJq('.a\n| {a: }')).rejects.toThrow(/^--jq: syntax error, unexpected '}' at line 2, column 7/);
    await expect(compileJq('$nope')).rejects.toBeInstanceOf(JqFilterError);
  });

  it('an error while filtering names --jq and keeps what the filter wrote to stderr', async () => {
    const filter = await compileJq('debug | .[]');
    expect(() => filter(3)).toThrow(/^--jq: Cannot iterate over number \(3\)$/);
    try {
      filter(3);
    } catch (err) {
      expect((err as JqFilterError).warnings).toBe('["DEBUG:",3]');
    }
    expect(filter([1])).toEqual({ text: '1', warnings: '["DEBUG:",[1]]' });
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
