import { expect, it } from 'vitest';
import { AUTO, HOST, cloudBlock, describeTerraform, flat, serveForTerraform } from '../../helpers/terraform.js';
import { runIdOf, scenarioSteps } from '../../helpers/terraform-scenarios.js';

/**
 * Day one with the real Terraform CLI and berth serve: configurations people write, run remotely.
 * A local-exec provisioner, terraform_data's triggers_replace, a `check` block (a warning, the
 * plan goes on) and a failing precondition (the plan errors: exit 1, the run ends errored, the
 * workspace is free). A local module, terraform.tfvars and *.auto.tfvars, file() of a file beside
 * the configuration, -var of a list and a map; a required variable without a value. And the
 * commands that work without berth once initialized: validate and fmt; init -upgrade again, and
 * init -reconfigure, which the CLI refuses with a cloud block.
 */

const checks = (org: string) =>
  cloudBlock(org, 'name = "app"') +
  `
variable "n" {
  type    = number
  default = 1
}

resource "terraform_data" "t" {
  triggers_replace = [var.n]

  provisioner "local-exec" {
    command = "echo provisioned-\${var.n}"
  }
}

check "small" {
  assert {
    condition     = var.n < 5
    error_message = "n is too large"
  }
}

resource "terraform_data" "guard" {
  input = var.n

  lifecycle {
    precondition {
      condition     = var.n != 3
      error_message = "n must not be 3"
    }
  }
}
`;

const withModule = (org: string) =>
  cloudBlock(org, 'name = "app"') +
  `
variable "from_tfvars" {
  type = string
}

variable "from_auto" {
  type = string
}

variable "l" {
  type    = list(string)
  default = []
}

variable "m" {
  type    = map(number)
  default = {}
}

module "m" {
  source = "./modules/m"
  text   = file("\${path.module}/data.txt")
}

output "mod" {
  value = module.m.out
}

output "vars" {
  value = "\${var.from_tfvars}/\${var.from_auto}/\${join(",", var.l)}/\${jsonencode(var.m)}"
}
`;

const moduleFiles = {
  'modules/m/main.tf': `variable "text" {
  type = string
}

output "out" {
  value = upper(trimspace(var.text))
}
`,
  'data.txt': 'hello file\n',
  'x.auto.tfvars': 'from_auto = "av"\n',
};

describeTerraform(
  'configurations in remote runs on berth serve',
  () => {
    const ctx = serveForTerraform();
    const { tf, run, locked, initialized, applied } = scenarioSteps(ctx);

    it('local-exec, triggers_replace and a check block plan and apply; a failing precondition errors the run', async () => {
      const org = 'cfg-checks';
      const { dir } = await initialized(org, { 'main.tf': checks(org) });
      const first = await applied(dir);
      expect(first.stdout).toContain('terraform_data.t (local-exec): provisioned-1');
      expect(first.stdout).toContain('Apply complete! Resources: 2 added, 0 changed, 0 destroyed.');

      const plan = await tf().run(dir, ['plan', ...AUTO, '-var', 'n=7']);
      expect(plan.code, plan.output).toBe(0);
      expect(plan.stdout).toContain('# terraform_data.t must be replaced');
      expect(flat(plan.output)).toContain('Warning: Check block assertion failed');
      expect(plan.output).toContain('n is too large');
      expect((await run(runIdOf(plan.stdout))).attributes).toMatchObject({
        status: 'planned_and_finished',
        'has-changes': true,
      });

      const failed = await tf().run(dir, ['plan', ...AUTO, '-var', 'n=3']);
      expect(failed.code, failed.output).toBe(1);
      expect(flat(failed.output)).toContain('Error: Resource precondition failed');
      expect(failed.output).toContain('n must not be 3');
      const errored = await run(runIdOf(failed.stdout));
      expect(errored.attributes.status).toBe('errored');
      expect(errored.attributes['status-timestamps']['errored-at']).toBeTruthy();
      const applyFailed = await tf().run(dir, ['apply', '-auto-approve', ...AUTO, '-var', 'n=3']);
      expect(applyFailed.code, applyFailed.output).toBe(1);
      expect((await run(runIdOf(applyFailed.stdout))).attributes.status).toBe('errored');
      expect(await locked(org, 'app')).toBe(false);

      const replaced = await applied(dir, ['-var', 'n=2']);
      expect(replaced.stdout).toContain('terraform_data.t (local-exec): provisioned-2');
      expect(replaced.stdout).toContain('Apply complete! Resources: 1 added, 1 changed, 1 destroyed.');
    });

    it('a local module, tfvars files, file() and -var of a list and a map reach the remote run; a missing variable errors it', async () => {
      const org = 'cfg-module';
      const { dir } = await initialized(org, {
        'main.tf': withModule(org),
        ...moduleFiles,
        'terraform.tfvars': 'from_tfvars = "tv"\n',
      });
      const res = await applied(dir, ['-var', 'l=["a","b"]', '-var', 'm={x=1}']);
      expect(res.stdout).toContain('mod = "HELLO FILE"');
      expect(res.stdout).toContain('vars = "tv/av/a,b/{\\"x\\":1}"');

      tf().workdir(org, { 'terraform.tfvars': '' });
      const missing = await tf().run(dir, ['plan', ...AUTO]);
      expect(missing.code, missing.output).toBe(1);
      expect(flat(missing.output)).toContain('Error: No value for required variable');
      expect(missing.output).toContain('"from_tfvars"');
      expect((await run(runIdOf(missing.stdout))).attributes.status).toBe('errored');
    });

    it('validate and fmt need no server once initialized; init -upgrade again; init -reconfigure is refused by the CLI', async () => {
      const org = 'cfg-init';
      const { dir } = await initialized(org, {
        'main.tf': cloudBlock(org, 'name = "app"') + 'output "x" {\nvalue = 1\n}\n',
      });
      const upgrade = await tf().run(dir, ['init', '-upgrade', ...AUTO]);
      expect(upgrade.code, upgrade.output).toBe(0);
      expect(upgrade.stdout).toContain('HCP Terraform has been successfully initialized!');
      const reconfigure = await tf().run(dir, ['init', '-reconfigure', ...AUTO]);
      expect(reconfigure.code).toBe(1);
      expect(flat(reconfigure.stderr)).toContain(
        'The -reconfigure option is for in-place reconfiguration of state backends only',
      );

      // A CLI configuration that points berth.test at a closed port: berth is out of reach.
      const away = tf().cliConfig('away', {
        hosts: { [HOST]: 'http://127.0.0.1:9' },
        credentials: { [HOST]: 'unused' },
      });
      const env = { TF_CLI_CONFIG_FILE: away };
      const validate = await tf().run(dir, ['validate', '-no-color'], { env });
      expect(validate.code, validate.output).toBe(0);
      expect(validate.stdout).toContain('Success! The configuration is valid.');
      const check = await tf().run(dir, ['fmt', '-check'], { env });
      expect(check.code).toBe(3);
      expect(check.stdout.trim()).toBe('main.tf');
      expect((await tf().run(dir, ['fmt'], { env })).code).toBe(0);
      expect((await tf().run(dir, ['fmt', '-check'], { env })).code).toBe(0);
      const plan = await tf().run(dir, ['plan', ...AUTO]);
      expect(plan.code, plan.output).toBe(0);
      expect(plan.stdout).toContain('+ x = 1');
    });
  },
  240_000,
);
