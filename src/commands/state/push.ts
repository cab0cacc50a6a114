import { readFileSync } from 'node:fs';
import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { explainLockConflict } from '../../cli/workspaces/lock-conflict.js';
import { usageError } from '../../cli/common/prompts.js';
import { parseWorkspaceArg } from '../../cli/workspaces/resolve-workspace.js';
import type { StateVersionAttributes } from '../../client/resources.js';
import { WorkspaceStateClient } from '../../client/state.js';
import { BerthError } from '../../domain/common/errors.js';
import { md5Hex } from '../../domain/state/state.js';
import { plural } from '../../domain/common/plural.js';

/** States up to this size travel inline (base64 in the JSON body); larger ones go to the upload URL. */
const INLINE_LIMIT = 512 * 1024;

export default class StatePush extends BerthCommand<typeof StatePush> {
  static override summary = 'Upload a state file as the workspace’s new state version.';
  static override description =
    'Locks the workspace, uploads the state, and unlocks it so that the new version becomes current. If you already hold the lock, it uploads and leaves the lock to you (the version becomes current when you unlock). As terraform state push does, it refuses (exit 5) a state of another lineage than the current one, or an older serial of the same lineage, unless --force.';
  static override examples = [
    '<%= config.bin %> state push app-prod terraform.tfstate --org acme',
    '<%= config.bin %> state push acme/app-prod ./state.json --json',
    '<%= config.bin %> state push app-prod restored.tfstate --org acme --force',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
    file: Args.string({ description: 'state file (JSON)', required: true }),
  };
  static override flags = {
    force: Flags.boolean({
      description: 'replace the state even if its lineage differs or its serial is older (terraform state push -force)',
      default: false,
    }),
  };

  async run(): Promise<void> {
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.args.file);
    } catch (err) {
      throw usageError(`cannot read ${this.args.file}: ${(err as Error).message}`);
    }
    let parsed: { serial?: unknown; lineage?: unknown };
    try {
      parsed = JSON.parse(bytes.toString('utf8')) as typeof parsed;
    } catch {
      throw usageError(`${this.args.file} is not a state file (not JSON)`);
    }
    if (typeof parsed.serial !== 'number')
      throw usageError(`${this.args.file} is not a state file (no numeric "serial")`);
    const attributes: Record<string, unknown> = {
      serial: parsed.serial,
      lineage: typeof parsed.lineage === 'string' ? parsed.lineage : undefined,
      md5: md5Hex(bytes),
      state: bytes.length <= INLINE_LIMIT ? bytes.toString('base64') : undefined,
      force: this.flags.force || undefined,
    };

    const client = await this.client();
    const state = new WorkspaceStateClient(client);
    const id = await state.workspaceId(parseWorkspaceArg(this.args.workspace, this.flags.org));
    // The state the workspace already has (same serial, lineage and content): nothing to push, as
    // terraform does not write a new version for an identical state. The API itself accepts the same
    // serial again (as HCP Terraform does), so this is the CLI's decision.
    const current = await state
      .currentStateVersion(id)
      .then((r) => r.data)
      .catch((err: unknown) => {
        if (err instanceof BerthError && err.status === 404) return null;
        throw err;
      });
    if (
      current &&
      current.attributes.serial === parsed.serial &&
      current.attributes.lineage === attributes.lineage &&
      current.attributes.md5 === attributes.md5
    ) {
      const message = `Nothing was pushed: ${this.args.file} is the workspace's current state (serial ${current.attributes.serial}, same lineage and content, ${current.id}).`;
      if (this.jsonMode) this.note(message);
      this.print(current, () => message);
      return;
    }
    const upload = async () => {
      const sv = await state.createStateVersion(id, attributes).catch((err) => {
        throw refusedSuccession(err, this.args.file, parsed);
      });
      if (attributes.state !== undefined) return sv;
      // Created without its state inline, the version is pending: it has an upload URL.
      await state.content(sv.attributes['hosted-state-upload-url']!, bytes);
      return (await client.get<StateVersionAttributes>(`/state-versions/${sv.id}`)).data;
    };

    let sv;
    try {
      sv = await upload(); // succeeds when the caller already holds the lock
      this.note('You hold the lock: the new version becomes current when you unlock the workspace.');
    } catch (err) {
      if (!(err instanceof BerthError && err.status === 409)) throw err;
      await state.lock(id, 'berth state push').catch((e) => explainLockConflict(e, client, id));
      try {
        sv = await upload();
      } finally {
        await state.unlock(id);
      }
      sv = (await client.get<StateVersionAttributes>(`/state-versions/${sv.id}`)).data;
    }
    this.print(
      sv,
      () =>
        `Pushed state serial ${sv.attributes.serial} (${plural(Number(sv.attributes['resource-count']), 'resource')}) as ${sv.id}.`,
    );
  }
}

/**
 * The API's refusal of another lineage (409, pointer at lineage: told apart from the 409 of a lock
 * not held) or an older serial (422), in terraform's terms, naming --force; exit 5 for both.
 */
function refusedSuccession(err: unknown, file: string, parsed: { serial?: unknown; lineage?: unknown }): unknown {
  if (!(err instanceof BerthError) || (err.status !== 422 && err.status !== 409)) return err;
  const pointer = err.items[0]?.pointer;
  const current = /lineage (\S+) \(/.exec(err.detail ?? '')?.[1];
  if (pointer === '/data/attributes/lineage')
    return new BerthError([
      {
        status: 422,
        title: 'refused',
        detail: `${file} is of lineage ${String(parsed.lineage)}, not the workspace's current lineage ${current ?? '(another)'}: it is another state. Nothing was pushed; pass --force to replace the state anyway`,
      },
    ]);
  if (pointer === '/data/attributes/serial' && err.status === 422)
    return new BerthError([
      {
        status: 422,
        title: 'refused',
        detail: `${file} has serial ${String(parsed.serial)}, older than serial ${/at serial (\d+)/.exec(err.detail ?? '')?.[1] ?? '(newer)'} of the same lineage on the workspace. Nothing was pushed; pass --force to replace the state anyway`,
      },
    ]);
  return err;
}
