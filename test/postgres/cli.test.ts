import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/common/exit-codes.js';
import { runCli } from '../helpers/cli.js';
import { freshPostgresSchema } from '../helpers/store.js';

/** The CLI's local mode over PostgreSQL: `--database URL` or `BERTH_DATABASE_URL`, no server. */
describe('berth CLI with --database postgres://', () => {
  let schema: Awaited<ReturnType<typeof freshPostgresSchema>>;
  beforeAll(async () => {
    schema = await freshPostgresSchema();
  });
  afterAll(async () => {
    await schema?.drop();
  });

  it('creates, lists, locks and deletes through the same API as on SQLite', async () => {
    const db = ['--database', schema.url];
    expect((await runCli(['org', 'create', 'pgcli', '--email', 'p@x.test', ...db])).code).toBe(0);
    const created = await runCli(['workspace', 'create', 'Web-Prod', '--org', 'pgcli', '--json', ...db]);
    expect(created.code, created.stderr).toBe(0);
    const id = JSON.parse(created.stdout).id;
    // The environment variable works the same as the flag.
    const lock = await runCli(['workspace', 'lock', id, '--reason', 'deploy', '--json'], {
      BERTH_DATABASE_URL: schema.url,
    });
    expect(lock.code, lock.stderr).toBe(0);
    // The same caller (local mode's admin) locking again: already held by it, a success.
    const again = await runCli(['workspace', 'lock', id, ...db]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout + again.stderr).toContain('already locked by you');
    // Names are unique without regard to case, as on SQLite.
    const dup = await runCli(['workspace', 'create', 'web-prod', '--org', 'pgcli', ...db]);
    expect(dup.code).toBe(EXIT.invalid);
    expect(dup.stderr).toMatch(/already been taken/);
    const list = await runCli(['workspace', 'list', '--org', 'pgcli', '--json', ...db]);
    expect(JSON.parse(list.stdout).map((w: any) => w.attributes.name)).toEqual(['Web-Prod']);
  });

  it('refuses backup and restore on PostgreSQL, naming its own tools', async () => {
    const r = await runCli(['backup', '/tmp/never-written.db', '--database', schema.url]);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toMatch(/pg_dump/);
  });

  it('reports an unreachable database with its URL (password hidden) and exit code 7', async () => {
    const r = await runCli(['org', 'list', '--database', 'postgres://berth:s3cret@127.0.0.1:1/none']);
    expect(r.code).toBe(EXIT.unreachable);
    expect(r.stderr).toMatch(/cannot use the database postgres:\/\/berth:\*\*\*@127\.0\.0\.1:1\/none/);
    expect(r.stderr).not.toMatch(/s3cret/);
    const serve = await runCli(['serve', '--port', '0', '--database', 'postgres://berth@127.0.0.1:1/none']);
    expect(serve.code).toBe(EXIT.unreachable);
    expect(serve.stderr).toMatch(/cannot use the database/);
  });
});
