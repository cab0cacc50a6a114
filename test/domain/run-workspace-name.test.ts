import { describe, expect, it } from 'vitest';
import { cliWorkspaceName } from '../../src/domain/runs/run-workspace-name.js';

describe('terraform.workspace in a remote run (cliWorkspaceName)', () => {
  const remote = (workspaces: string) =>
    `terraform {\n  backend "remote" {\n    hostname = "berth.test"\n    organization = "acme"\n    workspaces {\n      ${workspaces}\n    }\n  }\n}\n`;

  it('a cloud block, or no backend: the workspace name', () => {
    expect(cliWorkspaceName('app-prod', ['terraform {\n  cloud {\n    workspaces { name = "app-prod" }\n  }\n}'])).toBe(
      'app-prod',
    );
    expect(cliWorkspaceName('app-prod', ['resource "terraform_data" "x" {}'])).toBe('app-prod');
    expect(cliWorkspaceName('app-prod', [])).toBe('app-prod');
  });

  it('the remote backend with a name: default', () => {
    expect(cliWorkspaceName('app-web', ['output "x" { value = 1 }', remote('name = "app-web"')])).toBe('default');
  });

  it('the remote backend with a prefix: the name less the prefix', () => {
    expect(cliWorkspaceName('app-staging', [remote('prefix = "app-"')])).toBe('staging');
    // A name that does not carry the prefix (renamed since): the CLI could not select it; default.
    expect(cliWorkspaceName('other', [remote('prefix = "app-"')])).toBe('default');
  });

  it('a prefix elsewhere in the file does not count', () => {
    const text = `${remote('name = "app-web"')}\nlocals {\n  prefix = "app-"\n}\n`;
    expect(cliWorkspaceName('app-web', [text])).toBe('default');
  });
});
