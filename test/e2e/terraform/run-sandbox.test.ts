import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { startServe, type ServeProcess } from '../../helpers/serve.js';
import { AUTO, HOST, TerraformSandbox, cloudBlock, describeTerraform, flat } from '../../helpers/terraform.js';

/**
 * Every phase of a run executes in serve's bubblewrap sandbox (runner/sandbox.ts). Each test queues
 * a run whose configuration tries one way out, as a hostile tenant would, and asserts that it
 * failed: the run's own `local-exec` reports `CONTAINED-...` (or `ESCAPED-...`) into the log the
 * Terraform CLI streams. serve runs with a HOME of its own holding a secret file, a secret in its
 * environment, and its database in a folder beside them.
 */

const ENV_SECRET = 'env-secret-d41d8cd98f00';
const HOME_SECRET = 'home-secret-7f3a9c2e11b0';

describeTerraform(
  'the run sandbox: a run sees its own folder and nothing of serve',
  () => {
    let root: string;
    let db: string;
    let home: string;
    let server: ServeProcess;
    let tf: TerraformSandbox;

    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), 'berth-sandbox-e2e-'));
      db = join(root, 'data', 'berth.db');
      home = join(root, 'home');
      mkdirSync(join(root, 'data'));
      mkdirSync(join(home, '.config', 'berth'), { recursive: true });
      writeFileSync(join(home, '.config', 'berth', 'credentials.json'), JSON.stringify({ token: HOME_SECRET }));
      server = await startServe(db, ['--execute-runs', '--hostname', HOST], {
        HOME: home,
        BERTH_TEST_SECRET: ENV_SECRET,
      });
      tf = new TerraformSandbox({ hosts: { [HOST]: server.url }, credentials: { [HOST]: server.token! } });
      const made = await runCli(['org', 'create', 'sbx', '--email', 'ops@sbx.test', '--server', server.url], {
        BERTH_TOKEN: server.token!,
      });
      expect(made.code, made.stderr).toBe(0);
    });
    afterAll(async () => {
      await tf?.cleanup();
      if (server) await server.stop('SIGKILL');
      rmSync(root, { recursive: true, force: true });
    });

    /** Applies, as workspace `name`, a resource whose local-exec runs `script` in the run's sandbox. */
    const applyScript = async (name: string, script: string, extra = '') => {
      const dir = tf.workdir(name, {
        'main.tf':
          cloudBlock('sbx', `name = "${name}"`) +
          `
resource "terraform_data" "attempt" {
  provisioner "local-exec" {
    command = <<-EOT
${script}
    EOT
  }
}
${extra}`,
      });
      const init = await tf.run(dir, ['init', ...AUTO]);
      expect(init.code, init.output).toBe(0);
      return tf.run(dir, ['apply', '-auto-approve', ...AUTO]);
    };

    /** The shell test `check` (exit 0: the attempt worked) as a line the log reports. */
    const attempt = (tag: string, check: string) =>
      `if ${check}; then echo "ESCAPED-${tag}"; else echo "CONTAINED-${tag}"; fi`;

    /** What the attempt `tag` reported (the log also shows the script itself, in its "Executing" line). */
    const expectContained = (output: string, tag: string) => {
      expect(output, output).toMatch(new RegExp(`\\(local-exec\\): CONTAINED-${tag}$`, 'm'));
      expect(output).not.toMatch(new RegExp(`\\(local-exec\\): ESCAPED-${tag}$`, 'm'));
    };

    it('cannot read the database file by its path, nor see its folder', async () => {
      const result = await applyScript(
        'db-file',
        [
          attempt('db', `head -c 16 '${db}' > /dev/null 2>&1`),
          attempt('db-dir', `ls '${join(root, 'data')}' > /dev/null 2>&1`),
        ].join('\n'),
      );
      expect(result.code, result.output).toBe(0);
      expectContained(result.output, 'db');
      expectContained(result.output, 'db-dir');
    });

    it("cannot read another run's folder, nor see one", async () => {
      // Another run's folder as the executor makes them (named for serve's pid, in the temporary
      // folder), with its variables and CLI configuration.
      const other = join(tmpdir(), `berth-run-${server.child.pid}-othertenant`);
      mkdirSync(join(other, 'work'), { recursive: true });
      writeFileSync(join(other, 'work', 'zz_berth_0_workspace.auto.tfvars'), 'password = "other-tenant-secret"\n');
      writeFileSync(join(other, 'berth.tfrc'), 'credentials "x" { token = "berth-run.stolen" }\n');
      try {
        const result = await applyScript(
          'other-run',
          [
            attempt('tfvars', `cat '${join(other, 'work', 'zz_berth_0_workspace.auto.tfvars')}'`),
            attempt('tfrc', `cat '${join(other, 'berth.tfrc')}'`),
            // Its own folder is the only run folder it sees.
            attempt('listing', `[ "$(ls -d /tmp/berth-run-* | wc -l)" -ne 1 ]`),
          ].join('\n'),
        );
        expect(result.code, result.output).toBe(0);
        for (const tag of ['tfvars', 'tfrc', 'listing']) expectContained(result.output, tag);
        expect(result.output).not.toContain('other-tenant-secret');
        expect(result.output).not.toContain('berth-run.stolen');
      } finally {
        rmSync(other, { recursive: true, force: true });
      }
    });

    it("cannot read serve's environment or command line, nor see any process but its own", async () => {
      const pid = server.child.pid!;
      // Patterns that match the secret but not this very script (the log shows it, /proc too).
      const secret = `${ENV_SECRET.slice(0, -1)}[${ENV_SECRET.slice(-1)}]`;
      const result = await applyScript(
        'proc',
        [
          attempt('environ', `grep -q '${secret}' /proc/${pid}/environ 2>/dev/null`),
          attempt('cmdline', `grep -q berth /proc/${pid}/cmdline 2>/dev/null`),
          // Any process's environment with serve's secret, whatever its pid in the sandbox.
          attempt('any-environ', `cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | grep -q '${secret}'`),
          attempt('any-cmdline', `cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\\0' ' ' | grep -q -- '--datab[a]se'`),
        ].join('\n'),
      );
      expect(result.code, result.output).toBe(0);
      for (const tag of ['environ', 'cmdline', 'any-environ', 'any-cmdline']) expectContained(result.output, tag);
      expect(result.output).not.toContain(ENV_SECRET);
    });

    it("cannot read serve's home, nor the files of berth's configuration in it", async () => {
      const result = await applyScript(
        'home',
        [
          attempt('credentials', `cat '${join(home, '.config', 'berth', 'credentials.json')}'`),
          attempt('home-dir', `ls '${home}' > /dev/null 2>&1`),
          attempt('root-home', `ls /root > /dev/null 2>&1`),
        ].join('\n'),
      );
      expect(result.code, result.output).toBe(0);
      for (const tag of ['credentials', 'home-dir', 'root-home']) expectContained(result.output, tag);
      expect(result.output).not.toContain(HOME_SECRET);
    });

    it('cannot write outside its folder', async () => {
      const outside = join(root, 'written-by-a-run');
      // Named for this test process: what an earlier, unsandboxed, try left there does not count.
      const inUsr = `/usr/berth-run-was-here-${process.pid}`;
      const result = await applyScript(
        'write',
        [
          attempt('root-folder', `echo x > '${outside}' 2>/dev/null`),
          attempt('usr', `echo x > '${inUsr}' 2>/dev/null`),
          // Its /tmp is its own: what it writes there is gone with it.
          `echo x > /tmp/berth-run-tmp-marker-${process.pid}`,
        ].join('\n'),
      );
      expect(result.code, result.output).toBe(0);
      expectContained(result.output, 'root-folder');
      expectContained(result.output, 'usr');
      expect(existsSync(outside)).toBe(false);
      expect(existsSync(inUsr)).toBe(false);
      expect(existsSync(join(tmpdir(), `berth-run-tmp-marker-${process.pid}`))).toBe(false);
    });

    it('cannot outlive its phase in the background, even in a session of its own', async () => {
      // A sleep with a length no other process has: found by its command line on this machine.
      const marker = `4242.${process.pid}`;
      const result = await applyScript(
        'background',
        [
          `setsid sleep ${marker} > /dev/null 2>&1 < /dev/null &`,
          `nohup sleep ${marker} > /dev/null 2>&1 < /dev/null &`,
          'echo STARTED',
        ].join('\n'),
      );
      expect(result.code, result.output).toBe(0);
      expect(result.output).toContain('STARTED');
      const sleepers = () =>
        readdirSync('/proc')
          .filter((p) => /^\d+$/.test(p))
          .filter((p) => {
            try {
              return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(marker);
            } catch {
              return false;
            }
          });
      // The phase is over (the apply answered): nothing it started may still run.
      await expect.poll(sleepers, { timeout: 30_000 }).toEqual([]);
    });

    it('a run that does not try still works: state, outputs, a module, terraform_remote_state through berth', async () => {
      const producer = tf.workdir('producer', {
        'main.tf':
          cloudBlock('sbx', 'name = "producer"') +
          `
module "greeting" {
  source = "./modules/greeting"
  who    = "sandbox"
}
output "greeting" { value = module.greeting.text }
`,
        'modules/greeting/main.tf': `
variable "who" { type = string }
resource "terraform_data" "text" { input = "hello \${var.who}" }
output "text" { value = terraform_data.text.output }
`,
      });
      expect((await tf.run(producer, ['init', ...AUTO])).code).toBe(0);
      const made = await tf.run(producer, ['apply', '-auto-approve', ...AUTO]);
      expect(made.code, made.output).toBe(0);
      expect(made.stdout).toContain('greeting = "hello sandbox"');
      // A second apply of the same configuration finds its state: nothing to change.
      const again = await tf.run(producer, ['apply', '-auto-approve', ...AUTO]);
      expect(again.code, again.output).toBe(0);
      expect(flat(again.output)).toContain('No changes.');

      const ws = await fetch(`${server.url}/api/v2/organizations/sbx/workspaces/producer`, {
        method: 'PATCH',
        headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/vnd.api+json' },
        body: JSON.stringify({ data: { type: 'workspaces', attributes: { 'global-remote-state': true } } }),
      });
      expect(ws.status).toBe(200);
      const consumer = tf.workdir('consumer', {
        'main.tf':
          cloudBlock('sbx', 'name = "consumer"') +
          `
data "terraform_remote_state" "producer" {
  backend = "remote"
  config = {
    hostname     = "${HOST}"
    organization = "sbx"
    workspaces = { name = "producer" }
  }
}
output "got" { value = data.terraform_remote_state.producer.outputs.greeting }
`,
      });
      expect((await tf.run(consumer, ['init', ...AUTO])).code).toBe(0);
      const read = await tf.run(consumer, ['apply', '-auto-approve', ...AUTO]);
      expect(read.code, read.output).toBe(0);
      expect(read.stdout).toContain('got = "hello sandbox"');
    });
  },
  300_000,
);
