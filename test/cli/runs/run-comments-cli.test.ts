import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';

// Issue 43: berth run comment RUN "text" (or --file, - for stdin), the comments in `run show`,
// the run's history in `run events`; the comment of `run cancel --comment` is kept too.
describe('berth run comment, run show and run events', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (args: string[], stdin?: string) => runCli(args, env, stdin);
  const ok = async (args: string[], stdin?: string) => {
    const out = await cli(args, stdin);
    expect(out.code, out.stderr).toBe(0);
    return out;
  };
  let run: string;

  beforeAll(async () => {
    await ok(['org', 'create', 'acme', '--email', 'ops@acme.test']);
    const ws = JSON.parse((await ok(['workspace', 'create', 'app', '--json'])).stdout);
    // A recorded run, pending (berth api: `run record` records only runs that ended).
    const created = await ok([
      'api',
      'POST',
      '/runs',
      '-f',
      'data[type]=runs',
      '-F',
      'data[attributes][recorded]=true',
      '-f',
      'data[relationships][workspace][data][type]=workspaces',
      '-f',
      `data[relationships][workspace][data][id]=${ws.id}`,
    ]);
    run = JSON.parse(created.stdout).data.id;
  });
  afterAll(() => tmp.cleanup());

  it('comments from the argument, a file and stdin; --json answers the comment', async () => {
    const first = await ok(['run', 'comment', run, 'The plan replaces the database']);
    expect(first.stdout).toMatch(new RegExp(`^Commented on run ${run} \\(wsc-[A-Za-z0-9]{16}\\)\\.\\n$`));
    const file = join(tmp.dir, 'review.md');
    writeFileSync(file, 'Reviewed with the DBA\n');
    await ok(['run', 'comment', run, '--file', file]);
    const json = JSON.parse((await ok(['run', 'comment', run, '--file', '-', '--json'], 'from stdin\n')).stdout);
    expect(json).toMatchObject({ type: 'comments', attributes: { body: 'from stdin' } });
  });

  it('refuses no text, both text and --file, a blank text (422: exit 5) and an unknown run (exit 3)', async () => {
    const none = await cli(['run', 'comment', run]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('give the comment as an argument, or --file PATH');
    const both = await cli(['run', 'comment', run, 'text', '--file', 'x']);
    expect(both.code).toBe(2);
    const blank = await cli(['run', 'comment', run, '   ']);
    expect(blank.code).toBe(5);
    expect(blank.stderr).toContain("Body can't be blank");
    const empty = await cli(['run', 'comment', run, '--file', '-'], '\n');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('the comment in stdin is empty');
    expect((await cli(['run', 'comment', 'run-AAAAAAAAAAAAAAAA', 'hello'])).code).toBe(3);
  });

  it('run cancel --comment keeps its comment; run show lists them all, run events the history', async () => {
    await ok(['run', 'cancel', run, '--comment', 'recorded by mistake']);
    const shown = await ok(['run', 'show', run]);
    expect(shown.stdout).toContain('Comments (4)');
    const lines = shown.stdout.split('\n').filter((l) => l.startsWith('  '));
    expect(lines.map((l) => l.replace(/^ {2}\S+, [^:]+:\d\d, [^:]+: /, ''))).toEqual([
      'The plan replaces the database',
      'Reviewed with the DBA',
      'from stdin',
      'recorded by mistake',
    ]);
    expect(lines[3]).toMatch(/\(canceled\): recorded by mistake$/);

    const events = await ok(['run', 'events', run]);
    const rows = events.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^ACTION\s+BY\s+AT\s+COMMENT$/);
    expect(rows.slice(1).map((r) => r.split(/\s+/)[0])).toEqual([
      'created',
      'commented',
      'commented',
      'commented',
      'canceled',
    ]);
    expect(rows.at(-1)).toMatch(/recorded by mistake$/);
    const json = JSON.parse((await ok(['run', 'events', run, '--json'])).stdout);
    expect(json.map((e: { attributes: { action: string } }) => e.attributes.action)).toEqual([
      'created',
      'commented',
      'commented',
      'commented',
      'canceled',
    ]);
    // --json of run show is the run itself, which names its comments.
    const doc = JSON.parse((await ok(['run', 'show', run, '--json'])).stdout);
    expect(doc.relationships.comments.data).toHaveLength(4);
  });

  it('has help with examples', async () => {
    for (const command of ['comment', 'events']) {
      const help = await ok(['run', command, '--help']);
      expect(help.stdout).toContain('EXAMPLES');
      expect(help.stdout).toContain(`berth run ${command} run-`);
    }
  });
});
