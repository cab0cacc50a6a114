import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, runCli, runCliInPty, tempDb } from '../../helpers/cli.js';

// Interactive and non-interactive `workspace create` put a workspace in the same project when
// nobody picks one: the organization's Default Project (issue 33).
describe('workspace create: the Default Project, with or without the prompt', () => {
  const db = tempDb();
  const env = { BERTH_DB: db.path, BERTH_ORG: 'acme' };
  const projectOf = async (name: string) => {
    const res = await runCli(['workspace', 'show', name, '--include', 'project', '--json-document'], env);
    expect(res.code, res.stderr).toBe(0);
    return JSON.parse(res.stdout).included.find((r: { type: string }) => r.type === 'projects').attributes.name;
  };

  beforeAll(async () => {
    expect((await runCli(['org', 'create', 'acme', '--email', 'ops@acme.test'], env)).code).toBe(0);
    // Projects made after the default one (and sorting before it by name).
    for (const p of ['Alpha', 'Beta']) expect((await runCli(['project', 'create', p], env)).code).toBe(0);
  });
  afterAll(() => db.cleanup());

  it('Enter at the project prompt picks the Default Project, as workspace create NAME does', async () => {
    expect((await runCli(['workspace', 'create', 'scripted'], env)).code).toBe(0);
    expect(await projectOf('scripted')).toBe('Default Project');

    const { code, output } = await runCliInPty(
      ['workspace', 'create'],
      [
        { expect: 'Workspace name', send: `prompted${KEYS.enter}` },
        { expect: 'Project', send: KEYS.enter },
        { expect: 'Execution mode', send: KEYS.enter },
        { expect: 'Description', send: KEYS.enter },
        { expect: 'Apply automatically', send: KEYS.enter },
        { expect: 'Tags', send: KEYS.enter },
        { expect: 'Create this workspace?', send: KEYS.enter },
      ],
      env,
    );
    expect(code, output).toBe(0);
    expect(output).toContain('Default Project (default)');
    expect(output).toMatch(/Project\s+Default Project\r?\n/);
    expect(output).not.toMatch(/prj-[A-Za-z0-9]{16} {2}/);
    expect(await projectOf('prompted')).toBe('Default Project');
  });
});
