import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, runCli, tempDb } from '../../helpers/cli.js';

/** Human output names things; --json keeps the ids (issue 21, "Names, not ids"). */
describe('names, not ids, in human output (local mode)', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const berth = (...args: string[]) => runCli(args, env);
  const json = jsonOf(berth);
  let projectId: string;
  let teamToken: string;

  beforeAll(async () => {
    expect((await berth('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    projectId = (await json('project', 'create', 'Platform', '--tag', 'dept=ops')).id;
    for (const name of ['app-1', 'app-2', 'app-3']) expect((await berth('workspace', 'create', name)).code).toBe(0);
    expect((await berth('team', 'create', 'lockers', '--manage-workspaces')).code).toBe(0);
    teamToken = (await berth('token', 'create', '--team', 'lockers')).stdout.trim();
  });
  afterAll(() => tmp.cleanup());

  it('moves say where to by name, and which workspaces', async () => {
    const moved = await berth('project', 'move-workspaces', projectId, 'app-1', 'app-2');
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toBe('Moved 2 workspaces into Platform: app-1, app-2.\n');
    const asJson = await json('project', 'move-workspaces', 'Platform', 'app-3');
    expect(asJson.project).toBe(projectId);
  });

  it('workspace list names the project; --json keeps its id', async () => {
    const table = await berth('workspace', 'list');
    expect(table.stdout).toMatch(/app-1\s+ws-\S+\s+Platform\s/);
    expect(table.stdout).not.toContain('prj-');
    const list = await json('workspace', 'list');
    expect(list[0].relationships.project.data.id).toBe(projectId);
  });

  it('workspace show names the project and where tags are inherited from', async () => {
    const shown = await berth('workspace', 'show', 'app-1', '--include', 'effective_tag_bindings');
    expect(shown.stdout).toMatch(/Project\s+Platform\n/);
    expect(shown.stdout).toMatch(/\nTags\s+dept=ops \(inherited from Platform\)/);
    const tags = await berth('project', 'tags', 'effective', 'Platform');
    expect(tags.stdout).toMatch(/dept\s+ops/);
  });

  it('a lock held by a team names the team, for the conflict and in show', async () => {
    const locked = await runCli(['workspace', 'lock', 'app-2', '--reason', 'migration'], {
      ...env,
      BERTH_TOKEN: teamToken,
    });
    expect(locked.code, locked.stderr).toBe(0);
    const conflict = await berth('workspace', 'lock', 'app-2');
    expect(conflict.code).toBe(8);
    expect(conflict.stderr).toMatch(
      /^Error: conflict: Workspace app-2 is locked by lockers \(team\) since \d\d:\d\d, just now: "migration"\.\n$/,
    );
    const unlock = await berth('workspace', 'unlock', 'app-2');
    expect(unlock.code).toBe(8);
    expect(unlock.stderr).toContain('is locked by lockers (team)');
    const shown = await berth('workspace', 'show', 'app-2');
    expect(shown.stdout).toMatch(/Locked\s+yes, locked by lockers \(team\) since \d\d:\d\d, just now: "migration"\n/);
    // --json is the resource as the API gives it, ids and ISO times.
    const raw = await json('workspace', 'show', 'app-2');
    expect(raw.relationships['locked-by'].data.type).toBe('teams');
    expect(raw.attributes['locked-at']).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('retention names the workspace it is set on', async () => {
    // Local mode is the self-hosted edition, which has data retention policies.
    const set = await berth('workspace', 'retention', 'set', 'app-3', '--dont-delete');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/Set on\s+workspace app-3\n/);
    expect((await berth('workspace', 'retention', 'show', 'app-3')).stdout).toMatch(/Set on\s+workspace app-3\n/);
  });

  it('run show names the workspace', async () => {
    const run = await json(
      'run',
      'record',
      'app-3',
      '--status',
      'applied',
      '--plan-ms',
      '90000',
      '--apply-ms',
      '40000',
    );
    const shown = await berth('run', 'show', run.id);
    expect(shown.stdout).toMatch(/Workspace\s+app-3\n/);
    expect(shown.stdout).toMatch(/Plan duration\s+1m30s\n/);
    expect(shown.stdout).toMatch(/Apply duration\s+40s\n/);
  });
});
