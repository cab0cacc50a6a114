import { Args, Flags } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { confirmDestructive } from '../../../cli/common/prompts.js';
import { parseMirrorProvider } from '../../../cli/registry/mirror-packages.js';
import { ProviderMirrorClient } from '../../../client/provider-mirror.js';
import { notFound } from '../../../domain/common/errors.js';
import { plural } from '../../../domain/common/plural.js';

export default class RegistryMirrorDelete extends BerthCommand<typeof RegistryMirrorDelete> {
  static override summary = "Delete a provider (every version) or one version from the organization's provider mirror.";
  static override description =
    'Deletes each archive pushed for it (every platform). Runs and configurations that install it from the mirror no longer find it. Asks for confirmation on a terminal; elsewhere give --yes.';
  static override examples = [
    '<%= config.bin %> registry mirror delete registry.terraform.io/hashicorp/null --version 3.2.1 --org acme --yes',
    '<%= config.bin %> registry mirror delete registry.terraform.io/hashicorp/null --org acme --yes --json',
  ];
  static override args = {
    provider: Args.string({
      description: 'HOSTNAME/NAMESPACE/TYPE, e.g. registry.terraform.io/hashicorp/null',
      required: true,
    }),
  };
  static override flags = {
    version: Flags.string({ description: 'delete only this version' }),
    yes: Flags.boolean({ char: 'y', description: 'do not ask for confirmation', default: false }),
  };

  async run(): Promise<void> {
    const org = this.requireOrg();
    const where = parseMirrorProvider(this.args.provider);
    const mirror = new ProviderMirrorClient(await this.client());
    const packages = await mirror.packages(org, { ...where, version: this.flags.version });
    const what = `${where.hostname}/${where.namespace}/${where.type}${this.flags.version ? ` ${this.flags.version}` : ''}`;
    if (packages.length === 0) throw notFound(`the mirror of ${org} holds no ${what}`);
    const versions = [...new Set(packages.map((p) => p.attributes.version))];
    await confirmDestructive(
      `delete ${what} from the mirror of ${org} (${plural(packages.length, 'archive')} of ${plural(versions.length, 'version')}: ${versions.join(', ')})`,
      this.flags,
    );
    const deleted: { provider: string; version: string; platform: string; filename: string }[] = [];
    for (const p of packages) {
      await mirror.delete(org, { ...where, filename: p.attributes.filename });
      deleted.push({
        provider: `${where.hostname}/${where.namespace}/${where.type}`,
        version: p.attributes.version,
        platform: `${p.attributes.os}_${p.attributes.arch}`,
        filename: p.attributes.filename,
      });
    }
    this.print(deleted, () =>
      [
        ...deleted.map((d) => `deleted ${d.provider} ${d.version} ${d.platform}`),
        `Deleted ${plural(deleted.length, 'archive')} from the mirror of ${org}.`,
      ].join('\n'),
    );
  }
}
