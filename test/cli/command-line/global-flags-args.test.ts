import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../../src/cli/command-line/dispatch.js';
import { runCli, tempDb } from '../../helpers/cli.js';

// Issue 33: `berth --profile nope ws ls` said "command --profile not found", and `berth workspace
// list app-prod` "command workspace:list:app-prod not found".
describe('global flags before the command, and arguments a command does not take', () => {
  const tmp = tempDb();
  const config = join(tmp.dir, 'config.json');
  const env = { BERTH_DB: tmp.db, BERTH_CONFIG: config };
  const cli = (...args: string[]) => runCli(args, env);
  beforeAll(async () => {
    writeFileSync(config, JSON.stringify({ profiles: { ops: { org: 'acme' } } }));
    expect((await cli('org', 'create', 'acme', '--email', 'a@acme.test')).code).toBe(0);
    expect((await cli('workspace', 'create', 'web', '--org', 'acme')).code).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  it('global flags may come before the command', async () => {
    const byOrg = await cli('--org', 'acme', 'ws', 'ls', '--columns', 'name');
    expect(byOrg.code, byOrg.stderr).toBe(0);
    expect(byOrg.stdout.trim().split('\n')).toEqual(['NAME', 'web']);
    const short = await cli('-o', 'acme', '-j', 'workspace', 'list');
    expect(short.code, short.stderr).toBe(0);
    expect(JSON.parse(short.stdout).map((w: { attributes: { name: string } }) => w.attributes.name)).toEqual(['web']);
    const byProfile = await cli('--profile', 'ops', '--jq', '.[].attributes.name', 'ws', 'ls');
    expect(byProfile).toMatchObject({ code: 0, stdout: 'web\n' });
  });

  it('an unknown profile before the command: one line, exit 2', async () => {
    const r = await cli('--profile', 'nope', 'ws', 'ls');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `Error: no profile "nope" in ${config} (profiles: ops); create it with \`berth config set KEY VALUE --profile nope\`\n`,
    );
    expect(r.stdout).toBe('');
    expect(await cli('ws', 'ls', '--profile', 'nope')).toEqual(r);
  });

  it('a flag that is not global before the command: one line, exit 2', async () => {
    const r = await cli('--bogus', 'ws', 'ls');
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('Error: unknown flag --bogus before the command; only global flags (--server,');
  });

  it('an argument to a command that takes none: one line naming it, exit 2, wherever it is', async () => {
    const message =
      'Error: unexpected argument "app-prod": berth workspace list takes no arguments. See `berth workspace list --help`.\n';
    for (const args of [
      ['workspace', 'list', 'app-prod'],
      ['ws', 'ls', 'app-prod', '--org', 'acme'],
      ['workspace', 'list', '--org', 'acme', 'app-prod'],
    ]) {
      const r = await cli(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toBe(message);
      expect(r.stdout).toBe('');
    }
  });

  it('dispatch moves the global flags after the command words', () => {
    const ids = ['workspace:list', 'workspace:show', 'version'];
    const options = {
      globalFlags: [
        { name: 'org', char: 'o', takesValue: true },
        { name: 'json', char: 'j', takesValue: false },
      ],
      takesArguments: (id: string) => id === 'workspace:show',
    };
    expect(dispatch(['--org=acme', '-j', 'ws', 'show', 'web'], ids, options)).toEqual({
      argv: ['workspace', 'show', '--org=acme', '-j', 'web'],
    });
    expect(dispatch(['-oacme', '--no-json', 'ws', 'ls'], ids, options)).toEqual({
      argv: ['workspace', 'list', '-oacme', '--no-json'],
    });
    expect(dispatch(['--version'], ids, options)).toEqual({ argv: ['--version'] });
    expect(dispatch(['--json'], ids, options)).toEqual({
      error: 'a command is missing after --json. Run "berth help" for the commands.',
    });
    expect(dispatch(['version', 'now'], ids, options)).toEqual({
      error: 'unexpected argument "now": berth version takes no arguments. See `berth version --help`.',
    });
  });
});
