import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { renderFields, renderTable } from '../../../cli/output/output.js';
import { parseModuleArg } from '../../../cli/registry/module-args.js';
import { RegistryModulesClient } from '../../../client/registry-modules.js';

export default class RegistryModuleShow extends BerthCommand<typeof RegistryModuleShow> {
  static override aliases = ['module:show'];
  static override summary = 'Show a registry module: its source address and its versions with their status.';
  static override description =
    'A version is pending until its archive is uploaded in full, ok after; terraform sees only ok versions.';
  static override examples = ['<%= config.bin %> registry module show vpc/aws --org acme'];
  static override args = { module: Args.string({ description: 'NAME/PROVIDER, e.g. vpc/aws', required: true }) };

  async run(): Promise<void> {
    const { name, provider } = parseModuleArg(this.args.module);
    const mod = await new RegistryModulesClient(await this.client()).get(this.requireOrg(), name, provider!);
    const server = this.flags.server;
    const host = server && /^https?:\/\//.test(server) ? new URL(server).host : 'HOST';
    const a = mod.attributes;
    this.print(mod, () => {
      const versions = a['version-statuses'] ?? [];
      const fields = renderFields([
        ['ID', mod.id],
        ['Source', `${host}/${a.namespace}/${a.name}/${a.provider}`],
        ['Registry', a['registry-name']],
        ['Status', a.status],
        ['Created', a['created-at']],
      ]);
      const table =
        versions.length === 0
          ? 'No versions: publish one with `berth registry module publish`.'
          : renderTable(versions, [
              { header: 'VERSION', value: (v) => v.version },
              { header: 'STATUS', value: (v) => v.status },
            ]);
      return `${fields}\n\n${table}`;
    });
  }
}
