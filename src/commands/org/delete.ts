import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { lockHolderName, lockHolderOf, lockSince } from '../../cli/workspaces/lock-holder.js';
import { plural } from '../../domain/common/plural.js';
import { confirmByTyping } from '../../cli/common/prompts.js';
import { refuseUnlessPermitted } from '../../cli/common/refusals.js';
import type { WorkspaceAttributes } from '../../client/resources.js';

export default class OrgDelete extends BerthCommand<typeof OrgDelete> {
  static override summary = 'Delete an organization and everything in it.';
  static override description =
    "Says what goes with it: how many projects, workspaces and teams, which workspaces still manage resources (and how many; their state is lost, nothing is destroyed) and which are locked (by whom and why). Then, on a terminal, asks you to type the organization's name back; elsewhere it refuses unless --yes is given. --dry-run says what would be lost and deletes nothing. Only owners may delete an organization: anyone else is refused before anything is said or asked (exit 3, as the API's 404).";
  static override examples = [
    '<%= config.bin %> org delete acme --dry-run',
    '<%= config.bin %> org delete acme',
    '<%= config.bin %> org delete acme --yes',
  ];
  static override args = { name: Args.string({ description: 'organization name', required: true }) };
  static override flags = {
    yes: Flags.boolean({ char: 'y', description: 'do not ask for confirmation', default: false }),
    'dry-run': Flags.boolean({ description: 'say what would be deleted, delete nothing', default: false }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const org = this.args.name;
    const { data } = await client.organizations.get(org);
    // Refused before anything is announced, with the API's answer to a non-owner (a 404, exit 3).
    refuseUnlessPermitted(data, 'can-destroy', { status: 404, action: `delete organization ${org}` });
    const name = encodeURIComponent(org);
    const count = async (what: string) =>
      (await client.list(`/organizations/${name}/${what}`, {}, { pageSize: 1 })).pagination?.['total-count'] ?? 0;
    const workspaces = await client.listPages<WorkspaceAttributes>(`/organizations/${name}/workspaces`, {
      include: 'locked_by',
    });
    const contents = {
      projects: await count('projects'),
      workspaces: workspaces.data.length,
      teams: await count('teams'),
    };
    const managing = workspaces.data.filter((w) => Number(w.attributes['resource-count'] ?? 0) > 0);
    const locked = workspaces.data.filter((w) => w.attributes.locked);
    const summary = `organization ${org} with ${plural(contents.projects, 'project')}, ${plural(contents.workspaces, 'workspace')} and ${plural(contents.teams, 'team')}`;
    const resources = (n: unknown) => plural(Number(n), 'resource');
    const details = [
      ...(managing.length > 0
        ? [
            `${plural(managing.length, 'workspace still manages', 'workspaces still manage')} resources (their state is lost; nothing is destroyed):`,
            ...managing.map((w) => `  ${w.attributes.name}: ${resources(w.attributes['resource-count'])}`),
          ]
        : []),
      ...(locked.length > 0
        ? [
            `${plural(locked.length, 'workspace is', 'workspaces are')} locked:`,
            ...locked.map(
              (w) => `  ${w.attributes.name}: locked by ${lockHolderName(w, workspaces.included)}${lockSince(w)}`,
            ),
          ]
        : []),
    ];
    const holder = (w: (typeof locked)[number]) => {
      const h = lockHolderOf(w, workspaces.included)!;
      return h.kind === 'token' ? null : { type: `${h.kind}s`, id: h.id, name: h.name };
    };
    const lost = {
      'workspaces-with-resources': managing.map((w) => ({
        id: w.id,
        name: w.attributes.name,
        'resource-count': w.attributes['resource-count'],
      })),
      'locked-workspaces': locked.map((w) => ({
        id: w.id,
        name: w.attributes.name,
        'locked-by': holder(w),
        'locked-at': w.attributes['locked-at'],
        'locked-reason': w.attributes['locked-reason'],
      })),
    };
    if (this.flags['dry-run']) {
      this.print(
        { id: org, type: 'organizations', deleted: false, 'dry-run': true, 'would-delete': contents, ...lost },
        () => [`Dry run: deleting would remove ${summary}; nothing was deleted.`, ...details].join('\n'),
      );
      return;
    }
    this.note([`Deleting ${summary}.`, ...details].join('\n'));
    await confirmByTyping(`delete organization ${org} and all its projects, workspaces and teams`, org, this.flags);
    await client.organizations.delete(org);
    this.print({ id: org, type: 'organizations', deleted: true }, () => `Deleted organization ${org}.`);
  }
}
