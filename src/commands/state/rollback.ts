import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { confirmDestructive } from '../../cli/common/prompts.js';
import { refuseUnlessPermitted } from '../../cli/common/refusals.js';
import { humanTime } from '../../cli/output/human-time.js';
import { outputChangeLines, outputChanges } from '../../cli/views/state-rollback.js';
import { explainLockConflict } from '../../cli/workspaces/lock-conflict.js';
import { parseWorkspaceArg } from '../../cli/workspaces/resolve-workspace.js';
import { stateVersionOf } from '../../cli/workspaces/state-version-of.js';
import type { Resource } from '../../client/jsonapi.js';
import type { StateVersionAttributes } from '../../client/resources.js';
import { WorkspaceStateClient } from '../../client/state.js';
import { WorkspacesClient } from '../../client/workspaces.js';
import { BerthError } from '../../domain/common/errors.js';
import { plural } from '../../domain/common/plural.js';

/** The API's 409 for a rollback without the caller's lock (told apart from "the state changed meanwhile"). */
const needsLock = (err: unknown) =>
  err instanceof BerthError && err.status === 409 && /must be locked by you/.test(err.detail ?? '');

export default class StateRollback extends BerthCommand<typeof StateRollback> {
  static override summary = 'Restore an earlier state version as the workspace’s new current state.';
  static override description =
    "Makes a new state version with the content of --to (an earlier version of the workspace; berth state list shows them), its serial above the current one and the current lineage kept, as HCP Terraform's rollback does; the versions in between stay in the history. It says which outputs change (sensitive values masked) and asks for confirmation on a terminal; elsewhere it refuses unless --yes. It locks the workspace for the rollback and unlocks it after, so that the new version becomes current; if you already hold the lock, it leaves the lock to you (the version becomes current when you unlock). Only berth's record of the state changes, never the infrastructure: plan afterwards to see what differs.";
  static override examples = [
    '<%= config.bin %> state list app-prod --org acme',
    '<%= config.bin %> state rollback app-prod --to sv-abcdEFGH12345678 --org acme',
    '<%= config.bin %> state rollback acme/app-prod --to sv-abcdEFGH12345678 --yes --json',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
  };
  static override flags = {
    to: Flags.string({ description: 'the state version (sv-…) whose content becomes current', required: true }),
    yes: Flags.boolean({ char: 'y', description: 'do not ask for confirmation', default: false }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const state = new WorkspaceStateClient(client);
    const { data: ws } = await new WorkspacesClient(client).get(parseWorkspaceArg(this.args.workspace, this.flags.org));
    const name = String(ws.attributes.name);
    // Refused before the preview and the prompt, with the API's own answer (404, exit 3).
    refuseUnlessPermitted(ws, 'can-create-state-versions', {
      status: 404,
      action: 'roll back the state of this workspace',
    });
    const target = await stateVersionOf(state, ws.id, name, this.flags.to);
    this.note(await this.preview(state, name, ws.id, target));
    await confirmDestructive(`roll back the state of workspace ${name} to ${target.id}`, this.flags);

    let sv: Resource<StateVersionAttributes>;
    let held = true;
    try {
      sv = await state.rollback(ws.id, target.id);
    } catch (err) {
      if (!needsLock(err)) throw err;
      held = false;
      await state
        .lock(ws.id, `berth state rollback to ${target.id}`)
        .catch((e) => explainLockConflict(e, client, ws.id));
      try {
        sv = await state.rollback(ws.id, target.id);
      } finally {
        await state.unlock(ws.id);
      }
      sv = await state.stateVersion(sv.id);
    }
    const what = `Rolled back workspace ${name} to ${target.id} (serial ${target.attributes.serial}): new state version ${sv.id}, serial ${sv.attributes.serial}`;
    this.print(sv, () =>
      held ? `${what}; it becomes current when you unlock the workspace (you hold the lock).` : `${what}, is current.`,
    );
  }

  /** What the rollback changes: the versions, the resource count and the outputs (values of both versions). */
  private async preview(
    state: WorkspaceStateClient,
    name: string,
    workspaceId: string,
    target: Resource<StateVersionAttributes>,
  ): Promise<string> {
    const current = await state
      .currentStateVersion(workspaceId)
      .then((r) => r.data)
      .catch((err: unknown) => {
        if (err instanceof BerthError && err.status === 404) return null;
        throw err;
      });
    const t = target.attributes;
    const lines = [
      `Rolling back workspace ${name} to state version ${target.id} (serial ${t.serial}, created ${humanTime(String(t['created-at']))}).`,
    ];
    if (!current) {
      lines.push('The workspace has no current state: the new version gets its content.');
      return lines.join('\n');
    }
    const c = current.attributes;
    lines.push(
      current.id === target.id
        ? `It is the current state (serial ${c.serial}): the new version, above serial ${c.serial}, is a copy of it.`
        : `The current state (serial ${c.serial}, ${current.id}) stays in the history; a new version above serial ${c.serial} gets the content of ${target.id}.`,
    );
    if (t.status !== 'finalized') return lines.join('\n');
    const resources = (n: unknown) => plural(Number(n), 'resource');
    if (c['resource-count'] !== t['resource-count'])
      lines.push(`Resources: ${resources(c['resource-count'])} → ${resources(t['resource-count'])}.`);
    const [now, then] = await Promise.all([state.versionOutputs(current.id), state.versionOutputs(target.id)]);
    lines.push(...outputChangeLines(outputChanges(now, then)));
    return lines.join('\n');
  }
}
