import { expect, it } from 'vitest';
import { AUTO, cloudBlock, describeTerraform, serveForTerraform } from '../../helpers/terraform.js';
import { runIdOf, scenarioSteps } from '../../helpers/terraform-scenarios.js';

/**
 * The workspace's current configuration version as the real Terraform CLI leaves it: `terraform
 * apply` uploads a version that becomes current at once; `terraform plan` a speculative one and
 * `terraform plan -out` a provisional one, which do not, until the saved plan is applied (as HCP
 * Terraform documents the `provisional` attribute the CLI sends).
 */

const config = (input: string) => `
resource "terraform_data" "a" {
  input = ${JSON.stringify(input)}
}
`;

describeTerraform(
  'the current configuration version with the Terraform CLI and berth serve',
  () => {
    const ctx = serveForTerraform();
    const { tf, run, workspace, initialized, applied } = scenarioSteps(ctx);
    const org = 'current-config';
    const currentOf = async () =>
      (await workspace(org, 'app')).relationships['current-configuration-version'].data?.id ?? null;
    const versionOf = async (output: string) =>
      (await run(runIdOf(output))).relationships['configuration-version'].data.id as string;
    const version = async (id: string) => (await ctx.api('GET', `/configuration-versions/${id}`)).body.data;

    it('apply makes its version current; plan and plan -out do not, until the saved plan is applied', async () => {
      const { dir } = await initialized(org, { 'main.tf': cloudBlock(org, 'name = "app"') + config('one') });
      expect(await currentOf()).toBeNull();

      const first = await versionOf((await applied(dir)).stdout);
      expect(await currentOf()).toBe(first);
      const firstDoc = await version(first);
      expect(firstDoc.attributes).toMatchObject({ status: 'uploaded', speculative: false, provisional: false });
      // The CLI uploaded right after the create: a later read hands out no upload URL.
      expect(firstDoc.attributes).not.toHaveProperty('upload-url');

      const plan = await tf().run(dir, ['plan', ...AUTO]);
      expect(plan.code, plan.output).toBe(0);
      expect((await version(await versionOf(plan.stdout))).attributes.speculative).toBe(true);
      expect(await currentOf()).toBe(first);

      tf().workdir(org, { 'main.tf': cloudBlock(org, 'name = "app"') + config('two') });
      const saved = await tf().run(dir, ['plan', '-out=saved.tfplan', ...AUTO]);
      expect(saved.code, saved.output).toBe(0);
      const provisional = await versionOf(saved.stdout);
      expect((await version(provisional)).attributes).toMatchObject({ provisional: true, speculative: false });
      expect(await currentOf()).toBe(first);

      const apply = await tf().run(dir, ['apply', ...AUTO, 'saved.tfplan']);
      expect(apply.code, apply.output).toBe(0);
      expect(await currentOf()).toBe(provisional);
      const included = await ctx.api(
        'GET',
        `/organizations/${org}/workspaces/app?include=current_configuration_version`,
      );
      expect(included.body.included.map((r: any) => [r.type, r.id])).toEqual([['configuration-versions', provisional]]);
    });
  },
  240_000,
);
