import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/domain/common/clock.js';
import { cliConfigText } from '../../../src/runner/run-folder.js';
import { inProcessPort } from '../../../src/runner/in-process-port.js';
import type { AccessFixture } from '../../helpers/access.js';
import { standInPackage, throwawayKey, zipOf } from '../../helpers/provider-package.js';
import { executingFixture, newConfiguration, queueRun } from '../../helpers/run-execution.js';
import { addKey, publish, sendBytes } from './provider-helpers.js';

/**
 * A run reads its organization's providers (issue 44, item 4): its token may reach providers.v1
 * and the organization's mirror, nothing of another organization's; the claim names the
 * organization and the hostnames its mirror holds, and the run's CLI configuration puts the mirror
 * first (over https only, as Terraform requires), with berth's registries on every host block.
 */

const key = throwawayKey();
const pkg = standInPackage(key, 'standin', '1.0.0');

describe("a run's providers", () => {
  let f: AccessFixture;
  beforeEach(async () => {
    f = await executingFixture();
  });
  afterEach(() => f.api.close());

  it("lets the run token read its organization's registry and mirror, and no other's", async () => {
    await addKey(f.api, 'acme', key, f.owner.token);
    await publish(f.api, 'acme', key, pkg, f.owner.token);
    const other = zipOf({ 'terraform-provider-null_v1.0.0': Buffer.from('x') });
    const file = 'terraform-provider-null_1.0.0_linux_amd64.zip';
    expect(
      (
        await sendBytes(
          f.api,
          'PUT',
          `/api/registry/mirror/acme/registry.terraform.io/hashicorp/null/${file}`,
          other,
          f.owner.token,
        )
      ).status,
    ).toBe(201);
    expect((await f.api.createOrg('rival', f.owner.token)).status).toBe(201);

    await newConfiguration(f, f.web);
    await queueRun(f, f.web);
    const claim = await inProcessPort(f.api.store.db, systemClock).claim('test-executor');
    expect(claim).not.toBeNull();
    expect(claim!.organizationName).toBe('acme');
    expect(claim!.mirrorHostnames).toEqual(['registry.terraform.io']);
    const token = claim!.token;

    const versions = await f.api.get('/api/registry/v1/providers/acme/standin/versions', { token });
    expect(versions.status, versions.text).toBe(200);
    const dl = await f.api.get(`/api/registry/v1/providers/acme/standin/1.0.0/download/${pkg.os}/${pkg.arch}`, {
      token,
    });
    expect(dl.status).toBe(200);
    const index = await f.api.get('/api/registry/mirror/acme/registry.terraform.io/hashicorp/null/index.json', {
      token,
    });
    expect(index.status).toBe(200);
    expect(
      (await f.api.get('/api/registry/mirror/rival/registry.terraform.io/hashicorp/null/index.json', { token })).status,
    ).toBe(404);
    // Reads only: no push, no GPG keys, no provider API.
    expect(
      (
        await sendBytes(
          f.api,
          'PUT',
          `/api/registry/mirror/acme/registry.terraform.io/hashicorp/null/${file}`,
          other,
          token,
        )
      ).status,
    ).toBe(404);
    expect((await f.api.get('/api/registry/private/v2/gpg-keys?filter[namespace]=acme', { token })).status).toBe(404);
    expect((await f.api.get('/api/v2/organizations/acme/registry-providers', { token })).status).toBe(404);
  });

  it('writes the mirror first in the CLI configuration over https, and berth registries on each host', () => {
    const text = cliConfigText('https://127.0.0.1:8443', ['berth.example.com', '127.0.0.1:8443'], 'tok', {
      organization: 'acme',
      mirrorHostnames: ['registry.terraform.io'],
    });
    expect(text).toContain('"providers.v1" = "https://127.0.0.1:8443/api/registry/v1/providers/"');
    expect(text).toContain('"modules.v1" = "https://127.0.0.1:8443/api/registry/v1/modules/"');
    expect(text.match(/^host /gm)).toHaveLength(2);
    expect(text).toContain(`provider_installation {
  network_mirror {
    url = "https://127.0.0.1:8443/api/registry/mirror/acme/"
  }
  direct {
    exclude = ["registry.terraform.io/*/*"]
  }
}`);
    const plain = cliConfigText('http://127.0.0.1:8080', ['berth.example.com'], 'tok', { organization: 'acme' });
    expect(plain).not.toContain('provider_installation');
    expect(plain).toContain('"providers.v1" = "http://127.0.0.1:8080/api/registry/v1/providers/"');
  });
});
