import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';

const FIXTURE = new URL('../../fixtures/state-small.json', import.meta.url).pathname;

describe('berth state outputs (local mode)', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'a@acme.test')).code).toBe(0);
    expect((await cli('workspace', 'create', 'app')).code).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  it('says so when there is no state yet', async () => {
    const none = await cli('state', 'outputs', 'app');
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('No outputs');
    expect(JSON.parse((await cli('state', 'outputs', 'app', '--json')).stdout)).toEqual([]);
  });

  it('shows the current outputs, sensitive values masked unless --show-sensitive', async () => {
    expect((await cli('state', 'push', 'app', FIXTURE)).code).toBe(0);
    const table = await cli('state', 'outputs', 'acme/app');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/url\s+string\s+no\s+https:\/\/example\.test/);
    expect(table.stdout).toMatch(/password\s+string\s+yes\s+\(sensitive\)/);
    expect(table.stdout).not.toContain('hunter2');
    const shown = await cli('state', 'outputs', 'app', '--show-sensitive', '--json');
    expect(shown.code).toBe(0);
    const outputs = JSON.parse(shown.stdout);
    expect(outputs.map((o: any) => [o.type, o.attributes.name, o.attributes.value])).toEqual([
      ['state-version-outputs', 'url', 'https://example.test'],
      ['state-version-outputs', 'password', 'hunter2'],
    ]);
    expect((await cli('state', 'outputs', 'nope')).code).toBe(3);
  });
});
