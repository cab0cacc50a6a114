import { expect, it } from 'vitest';
import { AUTO, cloudBlock, describeTerraform, localByDefault, serveForTerraform } from '../../helpers/terraform.js';

/**
 * A rollback as the real Terraform CLI then sees it through its `cloud` block: `berth state
 * rollback` to the first apply's version makes its content current again, under the same lineage
 * with a serial above the last apply's, so `terraform state pull` reads the old content with the
 * new serial, `terraform output` the old value, and a plan of the old input changes nothing.
 * Local execution mode: the CLI applies on this machine, nothing waits for a run.
 */

const config = (org: string) =>
  cloudBlock(org, 'name = "app"') +
  `
variable "v" {
  type = string
}

resource "terraform_data" "a" {
  input = var.v
}

output "o" {
  value = terraform_data.a.output
}
`;

describeTerraform('terraform after berth state rollback', () => {
  const ctx = serveForTerraform({ executeRuns: false });
  const tf = () => ctx.sandbox();

  it('state pull gives the old content with the new serial; output and plan follow it', async () => {
    const org = 'rollback';
    const berth = await ctx.org(org);
    await localByDefault(berth, org);
    const dir = tf().workdir(org, { 'main.tf': config(org) });
    const init = await tf().run(dir, ['init', ...AUTO]);
    expect(init.code, init.output).toBe(0);
    for (const v of ['one', 'two']) {
      const apply = await tf().run(dir, ['apply', '-auto-approve', ...AUTO, `-var=v=${v}`]);
      expect(apply.code, apply.output).toBe(0);
    }
    const before = JSON.parse((await tf().run(dir, ['state', 'pull'])).stdout);
    expect(before.resources[0].instances[0].attributes.input.value).toBe('two');
    const versions = await berth.json('state', 'list', 'app');
    const first = versions[versions.length - 1];

    const rolled = await berth.remote('state', 'rollback', 'app', '--to', first.id, '--yes', '--json');
    expect(rolled.code, rolled.stderr).toBe(0);
    expect(rolled.stderr).toContain('~ o: "two" → "one"');
    const sv = JSON.parse(rolled.stdout);
    expect(sv.attributes).toMatchObject({ current: true, serial: before.serial + 1, lineage: before.lineage });

    const pulled = await tf().run(dir, ['state', 'pull']);
    expect(pulled.code, pulled.output).toBe(0);
    const after = JSON.parse(pulled.stdout);
    expect(after.serial).toBe(before.serial + 1);
    expect(after.lineage).toBe(before.lineage);
    expect(after.resources[0].instances[0].attributes.input.value).toBe('one');
    expect((await tf().run(dir, ['output', '-raw', 'o'])).stdout).toBe('one');

    const same = await tf().run(dir, ['plan', '-detailed-exitcode', ...AUTO, '-var=v=one']);
    expect(same.code, same.output).toBe(0);
    expect(same.stdout).toContain('No changes.');
    // And terraform writes on from there: its next apply follows the rolled-back serial.
    const again = await tf().run(dir, ['apply', '-auto-approve', ...AUTO, '-var=v=three']);
    expect(again.code, again.output).toBe(0);
    const last = JSON.parse((await tf().run(dir, ['state', 'pull'])).stdout);
    expect(last.serial).toBeGreaterThan(after.serial);
    expect(last.lineage).toBe(before.lineage);
  });
});
