import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, runCli, tempDb } from '../../helpers/cli.js';

// Issue 33, item 17.8: `berth run record` left three or four run.report records per run.
describe('run record: one audit record of its report per recorded run', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  const json = jsonOf(cli);

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    expect((await cli('workspace', 'create', 'app')).code).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  const actions = async () =>
    ((await json('audit', 'list')) as { attributes: { action: string } }[])
      .map((e) => e.attributes.action)
      .filter((a) => a.startsWith('run.'));

  it('an applied run: run.create and one run.report; the phases and durations are all there', async () => {
    const res = await cli(
      'run',
      'record',
      'app',
      '--status',
      'applied',
      '--plan-ms',
      '4000',
      '--apply-ms',
      '9000',
      '--json',
    );
    expect(res.code, res.stderr).toBe(0);
    const run = JSON.parse(res.stdout);
    expect(run.attributes.status).toBe('applied');
    const at = run.attributes['status-timestamps'];
    expect(Date.parse(at['applied-at']) - Date.parse(at['applying-at'])).toBe(9000);
    expect(Date.parse(at['planned-at']) - Date.parse(at['planning-at'])).toBe(4000);
    expect(await actions()).toEqual(['run.report', 'run.create']);
  });

  it('an errored plan and a canceled run: one run.report each too', async () => {
    expect((await cli('run', 'record', 'app', '--status', 'errored', '--plan-ms', '100', '--error', 'boom')).code).toBe(
      0,
    );
    expect((await cli('run', 'record', 'app', '--status', 'canceled')).code).toBe(0);
    const all = await actions();
    expect(all.filter((a) => a === 'run.report')).toHaveLength(3);
    expect(all.filter((a) => a === 'run.create')).toHaveLength(3);
  });
});
