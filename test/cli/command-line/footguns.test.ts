import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverUrl } from '../../../src/cli/connection/connection.js';
import { runCli, runCliInPty, tempDb } from '../../helpers/cli.js';

// The footguns of daily use: what a script or a person at a terminal could lose or get wrong.
describe('CLI footguns', () => {
  const a = tempDb();
  const env = { BERTH_DB: a.path };

  beforeAll(async () => {
    expect((await runCli(['org', 'create', 'acme', '--email', 'ops@acme.test'], env)).code).toBe(0);
  });
  afterAll(() => a.cleanup());

  it('an explicit --db wins over $BERTH_DB, for commands and for backup', async () => {
    const other = join(a.dir, 'other.db');
    expect((await runCli(['org', 'create', 'other', '--email', 'o@o.test', '--db', other], env)).code).toBe(0);
    const inOther = await runCli(['org', 'list', '--json', '--db', other], env);
    expect(JSON.parse(inOther.stdout).map((o: { id: string }) => o.id)).toEqual(['other']);
    const inEnv = await runCli(['org', 'list', '--json'], env);
    expect(JSON.parse(inEnv.stdout).map((o: { id: string }) => o.id)).toEqual(['acme']);

    const file = join(a.dir, 'other-backup.db');
    const backup = await runCli(['backup', file, '--db', other, '--json'], env);
    expect(backup.code, backup.stderr).toBe(0);
    // The resolved path is said before it acts, and it is --db's.
    expect(backup.stderr).toContain(`Backing up ${other} into ${file}`);
    expect(JSON.parse(backup.stdout).source).toBe(other);
  });

  it('never reads piped stdin into a missing argument', async () => {
    const res = await runCli(['workspace', 'create', '--org', 'acme'], env, 'from-stdin\n');
    expect(res.code).toBe(2);
    const list = await runCli(['workspace', 'list', '--org', 'acme', '--json'], env);
    expect(JSON.parse(list.stdout)).toEqual([]);
    // A `while read` loop keeps its input: the command does not swallow the lines after it.
    const lock = await runCli(['workspace', 'lock', '--org', 'acme'], env, 'second line\nthird line\n');
    expect(lock.code).toBe(2);
    expect(lock.stderr).toContain('say which workspace to lock');
  });

  it('backup through a server says it works on local files only', async () => {
    const res = await runCli(['backup', join(a.dir, 'x.db'), '--server', 'http://127.0.0.1:9'], {});
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('works on local database files only');
    expect(existsSync(join(a.dir, 'x.db'))).toBe(false);
  });

  it("backup with BERTH_DB set and a server named refuses, rather than copy this machine's file", async () => {
    const file = join(a.dir, 'laptop.db');
    // --server on the command line, the file from the environment (issue 46): refused.
    const flag = await runCli(['backup', file, '--server', 'http://127.0.0.1:9'], env);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain(
      'backup works on local database files only, never through a server: --server names http://127.0.0.1:9.',
    );
    // The server from the environment, the file too: refused.
    const both = await runCli(['backup', file], { ...env, BERTH_SERVER: 'http://127.0.0.1:9' });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('BERTH_SERVER (or the profile) names http://127.0.0.1:9');
    // restore and db copy read their database the same way.
    const restore = await runCli(['restore', join(a.dir, 'none.db'), '--server', 'http://127.0.0.1:9'], env);
    expect(restore.code).toBe(2);
    expect(restore.stderr).toContain('restore works on local database files only');
    expect(existsSync(file)).toBe(false);
    // A --db on the command line names the file despite a server from the environment.
    const named = await runCli(['backup', file, '--db', a.path, '--json'], {
      ...env,
      BERTH_SERVER: 'http://127.0.0.1:9',
    });
    expect(named.code, named.stderr).toBe(0);
    expect(JSON.parse(named.stdout).source).toBe(a.path);
  });

  it('takes servers without a scheme: https, except loopback over http', async () => {
    expect(serverUrl('berth.example.com')).toBe('https://berth.example.com');
    expect(serverUrl('berth.example.com:8443')).toBe('https://berth.example.com:8443');
    expect(serverUrl('127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(serverUrl('localhost:8080')).toBe('http://localhost:8080');
    expect(serverUrl('[::1]:8080')).toBe('http://[::1]:8080');
    expect(serverUrl('https://127.0.0.1:8080')).toBe('https://127.0.0.1:8080');
    // Nothing listens on port 9: the error names the URL that was used, with its scheme.
    const res = await runCli(['org', 'list', '--server', '127.0.0.1:9', '--token', 'x'], {});
    expect(res.code).toBe(7);
    expect(res.stderr).toContain('http://127.0.0.1:9');
    const bad = await runCli(['org', 'list', '--server', 'not a url', '--token', 'x'], {});
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('not a valid server URL');
  });

  it('Ctrl-C at a prompt exits 130 quietly and creates nothing', async () => {
    const { code, output } = await runCliInPty(
      ['workspace', 'create', '--org', 'acme'],
      [{ expect: 'Workspace name', send: '\x03' }],
      env,
    );
    expect(code).toBe(130);
    expect(output).not.toContain('force closed');
    expect(output).not.toContain('Error');
    const list = await runCli(['workspace', 'list', '--org', 'acme', '--json'], env);
    expect(JSON.parse(list.stdout)).toEqual([]);
  });
});
