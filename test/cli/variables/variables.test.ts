import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open } from '../../../src/store/secrets/cipher.js';
import { readKeyFile } from '../../../src/store/secrets/key-file.js';
import { jsonOf, runCli, tempDb } from '../../helpers/cli.js';

/** `berth var`: a workspace's variables by name, values never printed, secrets from stdin (local mode). */
describe('berth var (local mode)', () => {
  const db = tempDb();
  const env = { BERTH_DB: db.path, BERTH_ORG: 'acme' };
  const berth = (...args: string[]) => runCli(args, env);
  const json = jsonOf(berth);
  const SECRET = 'hunter2-s3cr3t-value';

  beforeAll(async () => {
    expect((await berth('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    expect((await berth('workspace', 'create', 'app-prod')).code).toBe(0);
  });
  afterAll(() => db.cleanup());

  it('set creates a Terraform variable, then updates the same key', async () => {
    const created = await berth('var', 'set', 'app-prod', 'region', '--value', 'eu-west-1');
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain('Created Terraform variable region in workspace app-prod.');
    const updated = await berth('var', 'set', 'app-prod', 'region', '--value', 'us-east-2', '--description', 'where');
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout).toContain('Updated Terraform variable region');
    const list = await json('var', 'list', 'app-prod');
    expect(list).toHaveLength(1);
    expect(list[0].attributes).toMatchObject({
      key: 'region',
      value: 'us-east-2',
      description: 'where',
      category: 'terraform',
    });
  });

  it('a sensitive env variable read from stdin is never printed, and the list masks it', async () => {
    const res = await runCli(
      ['var', 'set', 'app-prod', 'API_TOKEN', '--env', '--sensitive', '--value-file', '-', '--json'],
      env,
      `${SECRET}\n`,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout + res.stderr).not.toContain(SECRET);
    expect(JSON.parse(res.stdout).attributes).toMatchObject({ key: 'API_TOKEN', category: 'env', sensitive: true });
    const human = await berth('var', 'list', 'app-prod');
    expect(human.stdout).toMatch(/API_TOKEN\s+\(sensitive\)\s+env/);
    expect(human.stdout).not.toContain(SECRET);
    const asJson = await berth('var', 'list', 'app-prod', '--json');
    expect(asJson.stdout).not.toContain(SECRET);
    // The value reached the database (runs get it), with its trailing newline dropped, sealed
    // with the key of the key file local mode created beside the new database.
    const conn = new Database(db.path, { readonly: true });
    try {
      const row = conn.prepare("select id, value, sealed from workspace_variables where key = 'API_TOKEN'").get() as {
        id: string;
        value: string;
        sealed: number;
      };
      expect(row.sealed).toBe(1);
      expect(row.value).not.toContain(SECRET);
      const [key] = readKeyFile(`${db.path}.key`)!;
      expect(open(key, row.value, `workspace_variables/${row.id}`)).toBe(SECRET);
    } finally {
      conn.close();
    }
  });

  it('an HCL value, and the same key in the other category is another variable', async () => {
    const hcl = await berth('var', 'set', 'app-prod', 'sizes', '--value', '["s","m"]', '--hcl');
    expect(hcl.code, hcl.stderr).toBe(0);
    const envToo = await berth('var', 'set', 'app-prod', 'region', '--env', '--value', 'x');
    expect(envToo.code, envToo.stderr).toBe(0);
    const list = await json('var', 'list', 'app-prod');
    expect(list.map((v: any) => `${v.attributes.category}:${v.attributes.key}:${v.attributes.hcl}`).sort()).toEqual([
      'env:API_TOKEN:false',
      'env:region:false',
      'terraform:region:false',
      'terraform:sizes:true',
    ]);
  });

  it('a value from a file; a new variable needs a value; both sources at once is a usage error', async () => {
    writeFileSync(join(db.dir, 'v.txt'), 'from-a-file\n');
    const fromFile = await berth('var', 'set', 'app-prod', 'motd', '--value-file', join(db.dir, 'v.txt'));
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect((await json('var', 'list', 'app-prod')).find((v: any) => v.attributes.key === 'motd').attributes.value).toBe(
      'from-a-file',
    );
    const none = await berth('var', 'set', 'app-prod', 'brand_new');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('give its value');
    const both = await berth('var', 'set', 'app-prod', 'motd', '--value', 'a', '--value-file', join(db.dir, 'v.txt'));
    expect(both.code).toBe(2);
    expect(readFileSync(join(db.dir, 'v.txt'), 'utf8')).toBe('from-a-file\n');
  });

  it('a bad key is refused by the API with a clear error, and nothing is stored', async () => {
    const res = await berth('var', 'set', 'app-prod', 'bad\nkey', '--value', 'x');
    expect(res.code).not.toBe(0);
    expect(res.stderr.toLowerCase()).toContain('key');
    expect((await json('var', 'list', 'app-prod')).some((v: any) => v.attributes.key === 'bad\nkey')).toBe(false);
  });

  it('--dry-run changes nothing; unset deletes by key and category; a missing one says so', async () => {
    const dry = await berth('var', 'unset', 'app-prod', 'region', '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('Dry run');
    expect((await json('var', 'list', 'app-prod')).filter((v: any) => v.attributes.key === 'region')).toHaveLength(2);
    const gone = await berth('var', 'unset', 'app-prod', 'region');
    expect(gone.code, gone.stderr).toBe(0);
    expect(gone.stdout).toContain('Deleted Terraform variable region from workspace app-prod.');
    const left = (await json('var', 'list', 'app-prod')).filter((v: any) => v.attributes.key === 'region');
    expect(left.map((v: any) => v.attributes.category)).toEqual(['env']);
    const missing = await berth('var', 'unset', 'app-prod', 'region');
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('no Terraform variable region in workspace app-prod');
  });

  it('an unknown workspace is a not-found error', async () => {
    const res = await berth('var', 'list', 'nope');
    expect(res.code).toBe(3);
  });
});
