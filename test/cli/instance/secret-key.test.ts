import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../src/cli/common/exit-codes.js';
import { open } from '../../../src/store/secrets/cipher.js';
import { readKeyFile } from '../../../src/store/secrets/key-file.js';
import { runCli, tempDb } from '../../helpers/cli.js';
import { startServe } from '../../helpers/serve.js';

/**
 * The key of sensitive values from the CLI: local mode creates it beside a new database,
 * `berth db rotate-key` rotates it, commands that need no value work without it, those that do
 * (and `serve`) say which key is missing; `backup` names it.
 */
describe('the secret key (local mode, db rotate-key, serve)', () => {
  const db = tempDb();
  const keyFile = `${db.path}.key`;
  const env = { BERTH_DB: db.path, BERTH_ORG: 'acme' };
  const berth = (...args: string[]) => runCli(args, env);
  const SECRET = 'cli-secret-value-93f1';
  const sealedRow = () => {
    const conn = new Database(db.path, { readonly: true });
    try {
      return conn.prepare("select id, value, sealed from workspace_variables where key = 'TOKEN'").get() as {
        id: string;
        value: string;
        sealed: number;
      };
    } finally {
      conn.close();
    }
  };
  const recordedKey = () => {
    const conn = new Database(db.path, { readonly: true });
    try {
      return (conn.prepare("select value from settings where key = 'secret-key-id'").get() as { value: string }).value;
    } finally {
      conn.close();
    }
  };

  beforeAll(async () => {
    expect((await berth('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    expect((await berth('workspace', 'create', 'app')).code).toBe(0);
    const set = await runCli(['var', 'set', 'app', 'TOKEN', '--env', '--sensitive', '--value-file', '-'], env, SECRET);
    expect(set.code, set.stderr).toBe(0);
  });
  afterAll(() => db.cleanup());

  it('local mode made the key file beside the new database, and the value is sealed with it', () => {
    const [key] = readKeyFile(keyFile)!;
    expect(recordedKey()).toBe(key.id);
    const row = sealedRow();
    expect(row.sealed).toBe(1);
    expect(open(key, row.value, `workspace_variables/${row.id}`)).toBe(SECRET);
  });

  it('db rotate-key seals the values with a new key and leaves it alone in the file', async () => {
    const [old] = readKeyFile(keyFile)!;
    const before = sealedRow();
    const res = await berth('db', 'rotate-key', '--json');
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out).toMatchObject({ database: db.path, keyFile, previousKeyId: old.id, values: 1 });
    expect(res.stdout + res.stderr).not.toContain(old.bytes.toString('base64'));
    expect(res.stderr).toContain(`with key ${out.keyId}`);
    const keys = readKeyFile(keyFile)!;
    expect(keys.map((k) => k.id)).toEqual([out.keyId]);
    expect(recordedKey()).toBe(out.keyId);
    const after = sealedRow();
    expect(after.value).not.toBe(before.value);
    expect(open(keys[0], after.value, `workspace_variables/${after.id}`)).toBe(SECRET);

    const human = await berth('db', 'rotate-key');
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/Key file\s+\S+berth\.db\.key/);
    expect(human.stdout).toMatch(/Values re-encrypted\s+1/);
    const remote = await berth('db', 'rotate-key', '--server', 'http://127.0.0.1:9');
    expect(remote.code).toBe(EXIT.usage);
    expect(remote.stderr).toContain('without --server');
  });

  it('without the key file: listing works, writing a sensitive value and rotating fail with exit 9, changing nothing', async () => {
    const keyId = recordedKey();
    const before = sealedRow();
    const aside = join(db.dir, 'kept.key');
    renameSync(keyFile, aside);
    try {
      for (const args of [
        ['var', 'list', 'app'],
        ['workspace', 'list'],
        ['var', 'set', 'app', 'plain', '--value', 'x'],
        ['var', 'set', 'app', 'TOKEN', '--env', '--description', 'the API token'],
      ]) {
        const res = await berth(...args);
        expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(0);
      }
      const set = await berth('var', 'set', 'app', 'OTHER', '--env', '--sensitive', '--value', 'v');
      expect(set.code).toBe(EXIT.unavailable);
      expect(set.stderr).toContain('secret key unavailable');
      expect(set.stderr).toContain(`encrypted with key ${keyId}`);
      expect(set.stderr).toContain(`${keyFile} does not exist`);
      const rotate = await berth('db', 'rotate-key');
      expect(rotate.code).toBe(EXIT.unavailable);
      expect(rotate.stderr).toContain(`${keyFile} does not exist`);
      expect(existsSync(keyFile)).toBe(false);
      expect(recordedKey()).toBe(keyId);
      expect(sealedRow()).toEqual(before);

      // serve refuses to start without it, saying which key and file.
      const serve = await runCli(['serve', '--port', '0', '--no-execute-runs'], env);
      expect(serve.code).toBe(EXIT.usage);
      expect(serve.stderr).toContain(`encrypted with key ${keyId}`);
      expect(serve.stderr).toContain(keyFile);
    } finally {
      renameSync(aside, keyFile);
    }
  });

  it('serve names the key file and its id in its start-up lines (never the key); backup names the key it needs', async () => {
    const keyId = recordedKey();
    const server = await startServe(db.path, ['--no-execute-runs']);
    try {
      expect(server.stderr()).toContain(`sensitive variable values encrypted with key ${keyId} from ${keyFile}`);
      expect(server.stderr()).not.toContain(readKeyFile(keyFile)![0].bytes.toString('base64'));
    } finally {
      await server.stop();
    }
    const backup = await berth('backup', join(db.dir, 'b.db'), '--json');
    expect(backup.code, backup.stderr).toBe(0);
    expect(JSON.parse(backup.stdout).secretKeyId).toBe(keyId);
    expect(backup.stderr).toContain(`encrypted with key ${keyId}`);
    expect(backup.stderr).toContain(keyFile);
    expect(readFileSync(join(db.dir, 'b.db')).includes(Buffer.from(SECRET))).toBe(false);
  });

  it('serve on a new database creates its key file and says so', async () => {
    const fresh = tempDb();
    try {
      const server = await startServe(fresh.path, ['--no-execute-runs']);
      await server.stop();
      expect(server.stderr()).toContain(`created the secret key file ${fresh.path}.key`);
      expect(readKeyFile(`${fresh.path}.key`)).toHaveLength(1);
    } finally {
      fresh.cleanup();
    }
  });

  it('a lost key: db rotate-key --replace-lost-key asks first, then deletes what only it opened and sets up a new key', async () => {
    const lostId = recordedKey();
    renameSync(keyFile, join(db.dir, 'lost.key'));
    const refused = await berth('db', 'rotate-key', '--replace-lost-key');
    expect(refused.code).toBe(EXIT.usage);
    expect(refused.stderr).toContain('without --yes');
    expect(recordedKey()).toBe(lostId);
    const res = await berth('db', 'rotate-key', '--replace-lost-key', '--yes', '--json');
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out).toMatchObject({ keyFile, lostKeyId: lostId, values: 0 });
    expect(out.deleted).toEqual([
      expect.objectContaining({ key: 'TOKEN', category: 'env', owner: 'workspace acme/app' }),
    ]);
    expect(res.stderr).toContain('set them again');
    expect(readKeyFile(keyFile)!.map((k) => k.id)).toEqual([out.keyId]);
    const set = await runCli(['var', 'set', 'app', 'TOKEN', '--env', '--sensitive', '--value-file', '-'], env, 'again');
    expect(set.code, set.stderr).toBe(0);
  });
});
