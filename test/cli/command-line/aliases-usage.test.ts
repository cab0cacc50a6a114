import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch, expandAliases } from '../../../src/cli/command-line/dispatch.js';
import { runCli, tempDb } from '../../helpers/cli.js';

// Issue 33: usage errors on aliases printed a stack trace and "Command ws:show not found" (exit 1).
describe('aliases behave like the full names', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'a@acme.test')).code).toBe(0);
    expect((await cli('project', 'create', 'Platform')).code).toBe(0);
    expect((await cli('workspace', 'create', 'web')).code).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  it.each([
    [['ws', 'show'], ['workspace', 'show'], 'Error: missing argument WORKSPACE'],
    [['proj', 'show'], ['project', 'show'], 'Error: missing argument PROJECT'],
    [['ws', 'rm'], ['workspace', 'delete'], 'Error: missing argument WORKSPACE'],
    // Variables are unset; `delete` and `rm`, everywhere else's verbs, name it too (issue 46).
    [['var', 'delete'], ['var', 'unset'], 'Error: missing arguments WORKSPACE'],
    [['var', 'rm'], ['var', 'unset'], 'Error: missing arguments WORKSPACE'],
    [['ws', 'ls', '--bogus'], ['workspace', 'list', '--bogus'], 'Error: unknown flag --bogus for berth workspace list'],
  ])('%j: exit 2, one clean line, as %j', async (alias, full, message) => {
    const a = await cli(...alias);
    const f = await cli(...full);
    expect(a.code).toBe(2);
    expect(a.stderr.trim().split('\n')).toHaveLength(1);
    expect(a.stderr).toContain(message);
    expect(a.stderr).toContain(`See \`berth ${full.slice(0, 2).join(' ')} --help\`.`);
    expect(a.stderr).not.toMatch(/not found|\n\s+at /);
    expect(a.stdout).toBe('');
    expect(f).toEqual(a);
  });

  it('"workspace lsit" suggests list (a swap of two letters is one typo)', async () => {
    const r = await cli('workspace', 'lsit');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"workspace lsit" is not a berth command. Did you mean "berth workspace list"?');
    expect(dispatch(['ws', 'lsit'], ['workspace:list', 'workspace:lock'])).toEqual({
      error:
        '"workspace lsit" is not a berth command. Did you mean "berth workspace list"? Run "berth help workspace" for the list.',
    });
  });

  it('var delete unsets a variable, as var unset does', async () => {
    expect((await cli('var', 'set', 'web', 'region', '--value', 'eu-west-1')).code).toBe(0);
    const deleted = await cli('var', 'delete', 'web', 'region');
    expect(deleted.code, deleted.stderr).toBe(0);
    const listed = await runCli(['var', 'list', 'web', '--json'], env);
    expect(JSON.parse(listed.stdout)).toEqual([]);
    // A typo of it is suggested the command.
    expect(dispatch(['var', 'unste'], ['var:list', 'var:set', 'var:unset'])).toMatchObject({
      error: expect.stringContaining('Did you mean "berth var unset"?'),
    });
  });

  it('completion after an alias completes like the full name', async () => {
    expect(expandAliases(['ws', 'lock', '--project'], ['workspace:lock'])).toEqual(['workspace', 'lock', '--project']);
    const full = await cli('completion', 'candidates', '--', 'workspace', 'lock', '--project', '');
    const alias = await cli('completion', 'candidates', '--', 'ws', 'lock', '--project', '');
    expect(full.stdout.split('\n')).toContain('Platform');
    expect(alias.stdout).toBe(full.stdout);
    const commands = await cli('completion', 'candidates', '--', 'ws', 'l');
    expect(commands.stdout.trim().split('\n')).toEqual(['list', 'lock']);
    const names = await cli('completion', 'candidates', '--', 'ws', 'show', 'w');
    expect(names.stdout.trim()).toBe('web');
  });
});
