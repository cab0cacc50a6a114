import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';

describe('berth org defaults, agent pool scope and reserved tag keys (local mode)', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  const json = async (...args: string[]) => {
    const r = await cli(...args, '--json');
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  };
  let pool: string;
  let web: string;

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    pool = (await json('agent-pool', 'create', 'builders')).id;
    web = (await json('workspace', 'create', 'web')).id;
  });
  afterAll(() => tmp.cleanup());

  it('org update sets the agent default with a pool by name; inheriting workspaces follow', async () => {
    const org = await json(
      'org',
      'update',
      'acme',
      '--default-execution-mode',
      'agent',
      '--default-agent-pool',
      'builders',
    );
    expect(org.attributes['default-execution-mode']).toBe('agent');
    expect(org.relationships['default-agent-pool'].data).toEqual({ id: pool, type: 'agent-pools' });
    const ws = await json('workspace', 'show', 'web');
    expect(ws.attributes['execution-mode']).toBe('agent');
    const shown = await cli('org', 'show', 'acme');
    // The pool by name, not by id.
    expect(shown.stdout).toMatch(/Default agent pool\s+builders\n/);
    expect(shown.stdout).not.toContain(pool);
    const refused = await cli(
      'org',
      'update',
      'acme',
      '--default-execution-mode',
      'remote',
      '--default-agent-pool',
      'builders',
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("Default agent pool must not be specified unless using 'agent' execution mode");
    await json('org', 'update', 'acme', '--default-execution-mode', 'remote', '--aggregated-commit-status');
    expect((await json('org', 'show', 'acme')).attributes).toMatchObject({
      'default-execution-mode': 'remote',
      'aggregated-commit-status-enabled': true,
    });
  });

  it('org entitlements prints the entitlement set', async () => {
    const set = await json('org', 'entitlements', 'acme');
    expect(set.type).toBe('entitlement-sets');
    expect(set.attributes.operations).toBe(false);
    const table = await cli('org', 'entitlements', 'acme');
    expect(table.stdout).toMatch(/state-storage\s+yes/);
  });

  it('agent pools: create scoped to workspaces, show, list by allowed workspace, update', async () => {
    const scoped = await json(
      'agent-pool',
      'create',
      'private',
      '--no-organization-scoped',
      '--allow-workspace',
      'web',
    );
    expect(scoped.attributes['organization-scoped']).toBe(false);
    expect(scoped.relationships['allowed-workspaces'].data).toEqual([{ id: web, type: 'workspaces' }]);
    const show = await cli('agent-pool', 'show', 'private');
    expect(show.stdout).toMatch(/Organization-scoped\s+no/);
    // Workspaces by name, not by id.
    expect(show.stdout).toMatch(/Allowed workspaces\s+web\n/);
    const names = async (ws: string) =>
      (await json('agent-pool', 'list', '--allowed-workspace', ws)).map((p: any) => p.attributes.name);
    expect(await names('web')).toEqual(['builders', 'private']);
    expect(await names('other')).toEqual(['builders']);
    const cleared = await json('agent-pool', 'update', 'private', '--clear-allowed-workspaces', '--name', 'closed');
    expect(cleared.attributes.name).toBe('closed');
    expect(cleared.relationships['allowed-workspaces'].data).toEqual([]);
    const nothing = await cli('agent-pool', 'update', 'closed');
    expect(nothing.code).toBe(2);
  });

  it('project update sets and drops its own default execution mode', async () => {
    await json('project', 'create', 'Builds');
    const own = await json(
      'project',
      'update',
      'Builds',
      '--default-execution-mode',
      'agent',
      '--default-agent-pool',
      'builders',
    );
    expect(own.attributes['setting-overwrites']['default-execution-mode']).toBe(true);
    expect(own.relationships['default-agent-pool'].data.id).toBe(pool);
    const back = await json('project', 'update', 'Builds', '--inherit-execution-mode');
    expect(back.attributes).toMatchObject({
      'default-execution-mode': 'remote',
      'setting-overwrites': { 'default-execution-mode': false, 'default-agent-pool': false },
    });
  });

  it('org reserved-tag-key: create, list, update, delete', async () => {
    const key = await json('org', 'reserved-tag-key', 'create', 'env', '--disable-overrides');
    expect(key.attributes).toMatchObject({ key: 'env', 'disable-overrides': true });
    const table = await cli('org', 'reserved-tag-key', 'list');
    expect(table.stdout).toMatch(/^KEY\s+ID\s+OVERRIDES\s+CREATED/);
    expect(table.stdout).toMatch(/env\s+rtk-\S+\s+disabled/);
    const updated = await json(
      'org',
      'reserved-tag-key',
      'update',
      'env',
      '--key',
      'environment',
      '--no-disable-overrides',
    );
    expect(updated.attributes).toMatchObject({ key: 'environment', 'disable-overrides': false });
    const bad = await cli('org', 'reserved-tag-key', 'create', '! / nope');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('Key is invalid');
    const deleted = await json('org', 'reserved-tag-key', 'delete', 'environment', '--yes');
    expect(deleted).toEqual({ id: key.id, type: 'reserved-tag-keys', deleted: true });
    expect(await json('org', 'reserved-tag-key', 'list')).toEqual([]);
  });
});
