import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../helpers/cli.js';
import { remoteCli, startServe, type ServeProcess } from '../helpers/serve.js';

describe('project commands against berth serve (--server)', () => {
  const tmp = tempDb();
  let server: ServeProcess;
  const { remote, json } = remoteCli(() => server, 'acme');

  beforeAll(async () => {
    server = await startServe(tmp.db);
    expect((await remote('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
  });
  afterAll(() => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    tmp.cleanup();
  });

  it('creates, tags, filters, shows and deletes a project over HTTP', async () => {
    const created = await json(
      'project',
      'create',
      'Web Platform',
      '--tag',
      'env=prod',
      '--auto-destroy-duration',
      '14d',
    );
    await json('project', 'create', 'Batch', '--tag', 'env=dev');
    expect(await json('project', 'show', 'web platform')).toEqual(created);
    const added = await json('project', 'tags', 'add', 'Web Platform', 'team=web');
    expect(added.map((t: any) => t.attributes.key)).toEqual(['team']);
    const all = await json('project', 'tags', 'list', 'Web Platform');
    expect(all.map((t: any) => t.attributes.key)).toEqual(['env', 'team']);
    const names = async (...args: string[]) =>
      (await json('project', 'list', ...args)).map((p: any) => p.attributes.name);
    expect(await names('--tag', 'env=prod', '--tag', 'team')).toEqual(['Web Platform']);
    expect(await names('--names', 'batch,WEB PLATFORM', '--sort', '-name')).toEqual(['Web Platform', 'Batch']);
    expect(await names('--search', 'plat')).toEqual(['Web Platform']);
    expect(await json('project', 'delete', created.id, '--yes')).toEqual({
      id: created.id,
      type: 'projects',
      deleted: true,
    });
    const gone = await remote('project', 'show', created.id);
    expect(gone.code).toBe(3);
  });

  it('answers a go-tfe style request with percent-encoded brackets', async () => {
    const url = `${server.url}/api/v2/organizations/acme/projects?filter%5Btagged%5D%5B0%5D%5Bkey%5D=env&filter%5Btagged%5D%5B0%5D%5Bvalue%5D=&include=effective_tag_bindings`;
    const res = await fetch(url, {
      headers: { Authorization: `Bearer ${server.token!}`, Accept: 'application/vnd.api+json' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.api+json');
    const body: any = await res.json();
    expect(body.data.map((p: any) => p.attributes.name)).toEqual(['Batch']);
    expect(body.included).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{16}$/),
        type: 'effective-tag-bindings',
        attributes: { key: 'env', value: 'dev' },
      },
    ]);
    expect(body.meta['status-counts']).toEqual({ total: 2, matching: 1 });
  });

  it('exits 6 for a bad token', async () => {
    const res = await runCli(['project', 'list', '--org', 'acme', '--server', server.url, '--token', 'nope']);
    expect(res.code).toBe(6);
  });
});
