import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { startServe, type ServeProcess } from '../../helpers/serve.js';
import { AUTO, HOST, TerraformSandbox, cloudBlock, describeTerraform } from '../../helpers/terraform.js';

/**
 * `berth serve --run-network none` (runner/berth-bridge.ts): a run's sandbox has a loopback of its
 * own, on which berth, and only berth, is reachable. A run still reads another workspace's outputs
 * through berth (`terraform_remote_state`, under berth's name and port); the same run cannot open a
 * connection to another port of this machine, where the test listens and counts what arrives.
 */
describeTerraform(
  'runs with --run-network none reach berth and nothing else',
  () => {
    let root: string;
    let server: ServeProcess;
    let tf: TerraformSandbox;
    let listener: Server;
    let arrived = 0;
    let port = 0;

    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), 'berth-network-none-'));
      listener = createServer((c) => {
        arrived += 1;
        c.end('hello from outside\n');
      });
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      port = (listener.address() as { port: number }).port;
      server = await startServe(join(root, 'berth.db'), [
        '--execute-runs',
        '--hostname',
        HOST,
        '--run-network',
        'none',
      ]);
      expect(server.stderr()).toMatch(/each phase in a bubblewrap sandbox \(\S*bwrap, network none\)/);
      tf = new TerraformSandbox({ hosts: { [HOST]: server.url }, credentials: { [HOST]: server.token! } });
      const made = await runCli(['org', 'create', 'iso', '--email', 'ops@iso.test', '--server', server.url], {
        BERTH_TOKEN: server.token!,
      });
      expect(made.code, made.stderr).toBe(0);
    });
    afterAll(async () => {
      await tf?.cleanup();
      if (server) await server.stop('SIGKILL');
      await new Promise<void>((resolve) => (listener ? listener.close(() => resolve()) : resolve()));
      rmSync(root, { recursive: true, force: true });
    });

    it('reads outputs through berth; a connection to another port of this machine fails', async () => {
      const producer = tf.workdir('producer', {
        'main.tf': cloudBlock('iso', 'name = "producer"') + 'output "greeting" { value = "hello offline" }\n',
      });
      expect((await tf.run(producer, ['init', ...AUTO])).code).toBe(0);
      const made = await tf.run(producer, ['apply', '-auto-approve', ...AUTO]);
      expect(made.code, made.output).toBe(0);
      const ws = await fetch(`${server.url}/api/v2/organizations/iso/workspaces/producer`, {
        method: 'PATCH',
        headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/vnd.api+json' },
        body: JSON.stringify({ data: { type: 'workspaces', attributes: { 'global-remote-state': true } } }),
      });
      expect(ws.status).toBe(200);

      // node is in the sandbox (the bridge's shim runs on it): the run uses it to try the way out.
      const probe = `const s = require('net').connect(${port}, '127.0.0.1');
s.on('data', () => { console.log('ESCAPED-port'); process.exit(0); });
s.on('error', (e) => { console.log('CONTAINED-port ' + e.code); process.exit(0); });`;
      const consumer = tf.workdir('consumer', {
        'main.tf':
          cloudBlock('iso', 'name = "consumer"') +
          `
data "terraform_remote_state" "producer" {
  backend = "remote"
  config = {
    hostname     = "${HOST}"
    organization = "iso"
    workspaces = { name = "producer" }
  }
}
output "got" { value = data.terraform_remote_state.producer.outputs.greeting }
resource "terraform_data" "attempt" {
  provisioner "local-exec" {
    command = "${process.execPath} -e \\"$PROBE\\""
    environment = { PROBE = ${JSON.stringify(probe)} }
  }
}
`,
      });
      expect((await tf.run(consumer, ['init', ...AUTO])).code).toBe(0);
      const read = await tf.run(consumer, ['apply', '-auto-approve', ...AUTO]);
      expect(read.code, read.output).toBe(0);
      expect(read.stdout).toContain('got = "hello offline"');
      expect(read.output).toMatch(/\(local-exec\): CONTAINED-port ECONNREFUSED$/m);
      expect(read.output).not.toMatch(/\(local-exec\): ESCAPED-port$/m);
      expect(arrived).toBe(0);
    });
  },
  300_000,
);
