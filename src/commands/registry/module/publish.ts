import { Args, Flags } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { resolve } from 'node:path';
import { usageError } from '../../../cli/common/prompts.js';
import { parseModuleArg } from '../../../cli/registry/module-args.js';
import { configurationArchive } from '../../../cli/runs/configuration-archive.js';
import { RegistryModulesClient } from '../../../client/registry-modules.js';
import { BerthError } from '../../../domain/common/errors.js';

export default class RegistryModulePublish extends BerthCommand<typeof RegistryModulePublish> {
  static override aliases = ['module:publish'];
  static override summary = 'Publish a version of a registry module from a folder (packed like `berth run start`).';
  static override description =
    'Creates the module when it is missing, then the version (pending), then uploads the folder as a tar.gz (.terraformignore honoured, .terraform left out); the version is ok, and terraform can use it, once the upload is in. A version is published once: publish a new one to change it.';
  static override examples = [
    '<%= config.bin %> registry module publish vpc/aws 1.0.0 --directory ./modules/vpc --org acme',
    '<%= config.bin %> registry module publish vpc/aws 1.1.0 --json',
  ];
  static override args = {
    module: Args.string({ description: 'NAME/PROVIDER, e.g. vpc/aws', required: true }),
    version: Args.string({ description: 'a semantic version, e.g. 1.0.0', required: true }),
  };
  static override flags = {
    directory: Flags.string({ char: 'd', description: "the module's folder", default: '.' }),
  };

  async run(): Promise<void> {
    const org = this.requireOrg();
    const { name, provider } = parseModuleArg(this.args.module);
    const dir = resolve(this.flags.directory);
    const { archive, files } = await configurationArchive(dir).catch((err: NodeJS.ErrnoException) => {
      throw usageError(
        `--directory ${this.flags.directory}: ${err.code === 'ENOENT' ? 'no such folder' : err.message}`,
      );
    });
    if (!files.some((p) => p.endsWith('.tf') || p.endsWith('.tf.json')))
      throw usageError(`--directory ${this.flags.directory} holds no .tf file: not a module`);
    const modules = new RegistryModulesClient(await this.client());
    const existing = await modules.get(org, name, provider!).catch((err: unknown) => {
      if (err instanceof BerthError && err.status === 404) return null;
      throw err;
    });
    if (!existing) await modules.create(org, name, provider!);
    const version = await modules.createVersion(org, name, provider!, this.args.version);
    const upload = version.links?.upload;
    if (typeof upload !== 'string') throw new Error(`version ${version.id} has no upload link`);
    await modules.upload(upload, archive);
    const published = await modules.version(org, name, provider!, this.args.version);
    this.print(
      published,
      () =>
        `Published ${org}/${name}/${provider} ${this.args.version} (${files.length} files, ${archive.length} bytes; status ${published.attributes.status}).`,
    );
  }
}
