import { resolve } from 'node:path';
import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { configurationArchive } from '../../cli/runs/configuration-archive.js';
import { usageError } from '../../cli/common/prompts.js';
import { parseWorkspaceArg } from '../../cli/workspaces/resolve-workspace.js';
import { statusText } from '../../cli/views/run.js';
import { followRun } from '../../client/run-log.js';
import { RunsClient } from '../../client/runs.js';
import { WorkspaceStateClient } from '../../client/state.js';
import { WorkspacesClient } from '../../client/workspaces.js';

/**
 * A run variable's value is an HCL expression (as in HCP). A number, true/false/null, or a value
 * that starts as a string, list or object literal is sent as written; anything else as a string.
 */
export function hclValue(value: string): string {
  if (/^(-?\d+(\.\d+)?|true|false|null)$/.test(value) || /^["[{]/.test(value)) return value;
  return JSON.stringify(value).replace(/\$\{/g, '$${').replace(/%\{/g, '%%{');
}

export default class RunStart extends BerthCommand<typeof RunStart> {
  static override summary = 'Start a run that berth executes: upload a configuration, then plan (and apply).';
  static override description = `Needs a server that executes the workspace's runs: berth serve with a terraform binary (--execute-runs) for a workspace in remote execution mode, or a berth agent of its pool for one in agent mode (then serve needs no terraform of its own). Packs --directory (default: the current folder) as a tar.gz, leaving out what its .terraformignore excludes and always .git/ and .terraform/, uploads it as a new configuration version of the workspace and queues a run of it. Prints the run id and status (--json: the run).

With --follow, prints the plan's log as it is written, then the apply's when the run goes on to apply (--auto-apply), and returns when the run has ended or awaits confirmation (berth run apply RUN).

--save-plan makes a saved plan, as terraform plan -out does with a cloud block: it plans at once, without waiting for or locking the workspace, and waits as planned_and_saved until berth run apply RUN queues its apply (or berth run discard RUN). Once another run changes the workspace's state, it is discarded (stale).

--var KEY=VALUE sets a run variable: the value is an HCL expression; a number, true, false, null or a value starting with ", [ or { is sent as written, anything else as a string.`;
  static override examples = [
    '<%= config.bin %> run start app-prod --org acme --message "nightly" --follow',
    '<%= config.bin %> run start acme/app-prod --directory infra --plan-only --var region=eu-west-1',
    '<%= config.bin %> run start acme/app-prod --target terraform_data.web --target terraform_data.db --auto-apply --json',
    '<%= config.bin %> run start acme/app-prod --save-plan --follow   # then: berth run apply RUN',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
  };
  static override flags = {
    message: Flags.string({ description: 'run message' }),
    destroy: Flags.boolean({ description: 'plan to destroy every resource', default: false }),
    'refresh-only': Flags.boolean({ description: 'only refresh the state', default: false }),
    'plan-only': Flags.boolean({ description: 'a speculative plan: never applied', default: false }),
    'save-plan': Flags.boolean({
      description: 'a saved plan (as terraform plan -out): plans now without locking the workspace, applied later',
      default: false,
    }),
    target: Flags.string({
      description: 'resource address to target (repeatable)',
      multiple: true,
      multipleNonGreedy: true,
    }),
    replace: Flags.string({
      description: 'resource address to replace (repeatable)',
      multiple: true,
      multipleNonGreedy: true,
    }),
    var: Flags.string({ description: 'run variable KEY=VALUE (repeatable)', multiple: true, multipleNonGreedy: true }),
    'auto-apply': Flags.boolean({ description: 'apply without waiting for a confirmation', default: false }),
    directory: Flags.string({ description: 'the configuration folder to upload', default: '.' }),
    follow: Flags.boolean({
      description: 'print the logs until the run ends or awaits confirmation',
      default: false,
    }),
  };

  async run(): Promise<void> {
    const f = this.flags;
    const variables = (f.var ?? []).map((kv) => {
      const at = kv.indexOf('=');
      if (at <= 0) throw usageError(`--var ${kv} is not KEY=VALUE`);
      return { key: kv.slice(0, at), value: hclValue(kv.slice(at + 1)) };
    });
    if (f['plan-only'] && f['auto-apply']) throw usageError('--plan-only and --auto-apply exclude each other');
    if (f['save-plan'] && (f['plan-only'] || f['auto-apply']))
      throw usageError('--save-plan excludes --plan-only and --auto-apply: a saved plan is applied later');
    const dir = resolve(f.directory);
    const { archive, files } = await configurationArchive(dir).catch((err: NodeJS.ErrnoException) => {
      throw usageError(`--directory ${f.directory}: ${err.code === 'ENOENT' ? 'no such folder' : err.message}`);
    });
    if (!files.some((p) => p.endsWith('.tf') || p.endsWith('.tf.json')))
      throw usageError(`--directory ${f.directory} holds no .tf file: nothing to plan`);

    const client = await this.client();
    const runs = new RunsClient(client);
    const ref = parseWorkspaceArg(this.args.workspace, f.org);
    const wsId = await new WorkspaceStateClient(client).workspaceId(ref);
    const cv = await runs.createConfigurationVersion(wsId);
    const uploadUrl = cv.attributes['upload-url'];
    if (!uploadUrl) throw new Error(`configuration version ${cv.id} has no upload URL`);
    await runs.upload(uploadUrl, archive);
    let run = (
      await runs.createRun(wsId, cv.id, {
        message: f.message,
        'is-destroy': f.destroy || undefined,
        'refresh-only': f['refresh-only'] || undefined,
        'plan-only': f['plan-only'] || undefined,
        'save-plan': f['save-plan'] || undefined,
        'auto-apply': f['auto-apply'] || undefined,
        'target-addrs': f.target,
        'replace-addrs': f.replace,
        variables: variables.length ? variables : undefined,
      })
    ).data;
    const name =
      'name' in ref ? ref.name : String((await new WorkspacesClient(client).get({ id: wsId })).data.attributes.name);
    if (!this.jsonMode) this.note(`Started run ${run.id} in workspace ${name} (${files.length} files uploaded).`);
    if (f.follow) {
      // The logs go to stderr with --json, so that stdout holds the run document alone.
      const write = (text: string) => (this.jsonMode ? process.stderr : process.stdout).write(text);
      await followRun(runs, run.id, write);
      run = (await runs.getRun(run.id)).data;
    }
    // A run that ended errored says why (e.g. a server without a terraform binary).
    const why = run.attributes.status === 'errored' ? run.attributes['error-message'] : null;
    this.print(run, () => `${run.id} ${statusText(run)}${why ? `: ${why}` : ''}`);
  }
}
