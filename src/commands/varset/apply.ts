import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { changeVarsetTargets, varsetTargetFlags } from '../../cli/variables/varset-targets.js';

export default class VarsetApply extends BerthCommand<typeof VarsetApply> {
  static override summary = 'Apply a variable set to workspaces and projects.';
  static override examples = [
    '<%= config.bin %> varset apply aws-creds --workspace app-prod --workspace app-staging --org acme',
    '<%= config.bin %> varset apply aws-creds --project Platform --org acme --dry-run',
  ];
  static override args = { set: Args.string({ description: 'NAME (with --org) or varset- id', required: true }) };
  static override flags = {
    ...varsetTargetFlags,
    'dry-run': Flags.boolean({ description: 'say what would change, change nothing', default: false }),
  };

  async run(): Promise<void> {
    const done = await changeVarsetTargets(await this.client(), this.flags.org, this.args.set, this.flags, 'add');
    this.print(done.result, () => done.sentence);
  }
}
