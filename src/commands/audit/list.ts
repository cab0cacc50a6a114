import { Flags } from '../../cli/oclif.js';
import { listFromFlags, pagingFlags } from '../../cli/flags/paging.js';
import { BerthCommand } from '../../cli/base-command.js';
import { parseWorkspaceArg } from '../../cli/workspaces/resolve-workspace.js';
import { auditTable } from '../../cli/views/audit.js';
import { AuditTrailClient, type AuditListFilters } from '../../client/audit.js';
import { WorkspacesClient } from '../../client/workspaces.js';

export default class AuditList extends BerthCommand<typeof AuditList> {
  static override summary = 'List the audit trail of an organization, newest first.';
  static override description =
    'Every change made through the API (creates, updates, deletes, locks, moves, tokens, teams, access, state, runs) with its time, actor, action, target and request id. ' +
    'Owners of the organization and its organization token only. Lists every event (all pages) unless --limit, --page or --page-size is given; filters combine with AND.';
  static override examples = [
    '<%= config.bin %> audit list --org acme',
    '<%= config.bin %> audit list --org acme --limit 20',
    '<%= config.bin %> audit list --org acme --since 2025-06-01 --workspace app-prod',
    '<%= config.bin %> audit list --org acme --actor user-6jrRyVDv1J8zQMB5 --since 2025-06-01T12:00:00Z --json',
    '<%= config.bin %> audit list --org acme --page 1 --page-size 20 --columns time,action,actor,target',
  ];
  static override flags = {
    since: Flags.string({
      description: 'only changes at or after this ISO-8601 date or date-time (UTC unless an offset is given)',
    }),
    actor: Flags.string({
      description: 'only changes by this user, team or organization id (user-…, team-…, org-…) or token id (at-…)',
    }),
    workspace: Flags.string({
      char: 'w',
      description: 'only changes about this workspace: ws- id, NAME (in --org) or ORG/NAME; a deleted one by id',
    }),
    ...pagingFlags,
  };

  async run(): Promise<void> {
    const org = this.requireOrg();
    const client = await this.client();
    const f = this.flags;
    const filters: AuditListFilters = { since: f.since, actor: f.actor };
    if (f.workspace) {
      const ref = parseWorkspaceArg(f.workspace, org);
      filters.workspaceId = 'id' in ref ? ref.id : (await new WorkspacesClient(client).get(ref)).data.id;
    }
    const trail = new AuditTrailClient(client);
    const list = await listFromFlags(
      f,
      {
        all: (options) => trail.listAll(org, filters, options),
        page: (page) => trail.list(org, filters, page),
      },
      this.jsonMode ? undefined : (m) => this.note(m),
    );
    this.print(list, () => (list.length === 0 ? 'No audit events.' : auditTable(list)));
  }
}
