import { Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { limitFlag } from '../../cli/flags/paging.js';
import { flatTagTable } from '../../cli/views/relations.js';
import { WorkspaceRelationsClient } from '../../client/relations.js';

export default class TagsList extends BerthCommand<typeof TagsList> {
  static override summary = 'List the flat (string) tags of an organization, with how many workspaces carry each.';
  static override examples = [
    '<%= config.bin %> tags list --org acme',
    '<%= config.bin %> tags list --search team --org acme',
  ];
  static override flags = {
    search: Flags.string({ description: 'only tags whose name contains this (case-insensitive)' }),
    ...limitFlag,
  };

  async run(): Promise<void> {
    const tags = await new WorkspaceRelationsClient(await this.client()).organizationTags(
      this.requireOrg(),
      this.flags.search,
      { limit: this.flags.limit },
    );
    this.print(tags, () => (tags.length === 0 ? 'No tags.' : flatTagTable(tags, true)));
  }
}
