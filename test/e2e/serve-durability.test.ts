import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

/** `berth serve --durability full|normal` (store/sqlite.ts): said at start, refused when unknown. */
describe('serve --durability', () => {
  const tmp = tempDb();
  let server: ServeProcess | null = null;
  afterEach(async () => {
    await server?.stop();
    server = null;
  });

  it('defaults to full and says so when it starts listening; normal when asked', async () => {
    server = await startServe(tmp.db);
    expect(server.stderr()).toMatch(/berth listening on http:\/\/\S+ .*, database \S+ \(durability full\)/);
    const created = await fetch(`${server.url}/api/v2/organizations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/vnd.api+json' },
      body: JSON.stringify({ data: { type: 'organizations', attributes: { name: 'acme', email: 'a@acme.test' } } }),
    });
    expect(created.status).toBe(201);
    const token = server.token!;
    await server.stop();
    server = await startServe(tmp.db, ['--durability', 'normal']);
    expect(server.stderr()).toMatch(/\(durability normal\)/);
    const org = await fetch(`${server.url}/api/v2/organizations/acme`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(org.status).toBe(200);
  });

  it('refuses an unknown durability before it opens anything', async () => {
    const r = await runCli(['serve', '--port', '0', '--durability', 'sometimes', '--database', tmp.db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Expected --durability=sometimes to be one of: full, normal/);
  });

  it('documents both modes in its help', async () => {
    const r = await runCli(['serve', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--durability=<option>/);
    expect(r.stdout.replace(/\s+/g, ' ')).toMatch(/survives a power cut/);
  });
});
