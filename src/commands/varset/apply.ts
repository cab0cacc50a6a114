import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { describeTargets, resolveTargets, varsetTargetFlags } from '../../cli/varset-targets.js';
import { VarsetsClient } from '../../client/variables.js';

export default class VarsetApply extends BerthCommand<typeof VarsetApply> {
  static override summary = 'Apply a variable set to workspaces and projects.';
  static override examples = [
    '<%= config.bin %> varset apply aws-creds --workspace app-prod --workspace app-staging --org acme',
    '<%= config.bin %> varset apply aws-creds --project Platform --org acme',
  ];
  static override args = { set: Args.string({ description: 'NAME (with --org) or varset- id', required: true }) };
  static override flags = {
    ...varsetTargetFlags,
    'dry-run': Flags.boolean({ description: 'say what would change, change nothing', default: false }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const sets = new VarsetsClient(client);
    const id = await sets.resolve(this.flags.org, this.args.set);
    const targets = await resolveTargets(client, this.flags.org, this.flags);
    const what = describeTargets(targets);
    if (this.flags['dry-run']) {
      this.print(
        { dryRun: true, action: 'apply', set: this.args.set, ...targets },
        () => `Dry run (nothing changes): would apply variable set ${this.args.set} to ${what}.`,
      );
      return;
    }
    if (targets.workspaces.length > 0)
      await sets.relate(
        id,
        'workspaces',
        targets.workspaces.map((w) => w.id),
        'add',
      );
    if (targets.projects.length > 0)
      await sets.relate(
        id,
        'projects',
        targets.projects.map((p) => p.id),
        'add',
      );
    this.print(
      { set: this.args.set, action: 'apply', ...targets },
      () => `Applied variable set ${this.args.set} to ${what}.`,
    );
  }
}
