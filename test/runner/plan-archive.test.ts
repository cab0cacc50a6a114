import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fileInZip, MAX_ENTRY_BYTES } from '../../src/runner/plan-archive.js';
import { describeTerraform, TERRAFORM } from '../helpers/terraform.js';

/**
 * The executor reads the dependency lock file out of a saved plan (a zip archive terraform writes)
 * so that the apply's `terraform init` installs the providers the plan was made with.
 */
describeTerraform('fileInZip on a saved plan of the real terraform', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-plan-archive-'));
    writeFileSync(join(dir, 'main.tf'), 'resource "terraform_data" "x" {\n  input = "a"\n}\n');
    const env = { PATH: process.env.PATH, HOME: dir, CHECKPOINT_DISABLE: '1', TF_CLI_CONFIG_FILE: '/dev/null' };
    execFileSync(TERRAFORM!.path, ['init', '-input=false', '-no-color'], { cwd: dir, env, stdio: 'ignore' });
    execFileSync(TERRAFORM!.path, ['plan', '-input=false', '-no-color', '-out=p.tfplan'], {
      cwd: dir,
      env,
      stdio: 'ignore',
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers the lock file the plan was made with, and null for an entry it lacks', () => {
    const plan = readFileSync(join(dir, 'p.tfplan'));
    // Only the built-in provider: terraform writes no lock file to disk, the plan carries its header.
    expect(fileInZip(plan, '.terraform.lock.hcl')?.toString()).toMatch(
      /^# This file is maintained automatically by "terraform init"\./,
    );
    expect(fileInZip(plan, 'tfconfig/m-/main.tf')?.toString()).toBe(readFileSync(join(dir, 'main.tf')).toString());
    expect(fileInZip(plan, 'no-such-entry')).toBeNull();
  });
});

/** A one-entry zip archive, as any zip writer makes it (`method` 0: stored, 8: deflated). */
function zipOf(name: string, content: Buffer, method: 0 | 8): Buffer {
  const data = method === 8 ? deflateRawSync(content) : content;
  const fileName = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(method, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(method, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  central.writeUInt32LE(0, 42);
  const directoryAt = local.length + fileName.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(directoryAt, 16);
  return Buffer.concat([local, fileName, data, central, fileName, end]);
}

it('reads stored and deflated entries, and answers null for what is not a zip archive', () => {
  const content = Buffer.from('provider "registry.terraform.io/hashicorp/null" {}\n'.repeat(20));
  expect(fileInZip(zipOf('.terraform.lock.hcl', content, 0), '.terraform.lock.hcl')).toEqual(content);
  expect(fileInZip(zipOf('.terraform.lock.hcl', content, 8), '.terraform.lock.hcl')).toEqual(content);
  expect(fileInZip(zipOf('other', content, 8), '.terraform.lock.hcl')).toBeNull();
  expect(fileInZip(Buffer.from('not a zip archive at all, long enough to be looked at'), 'x')).toBeNull();
  expect(fileInZip(Buffer.alloc(0), 'x')).toBeNull();
  // A directory that points past the end.
  const broken = zipOf('.terraform.lock.hcl', content, 8);
  broken.writeUInt32LE(broken.length + 100, broken.length - 6);
  expect(fileInZip(broken, '.terraform.lock.hcl')).toBeNull();
});

it('does not inflate an entry past its bound: a crafted archive answers null', () => {
  const bomb = Buffer.alloc(MAX_ENTRY_BYTES + 1, 0x20);
  const zip = zipOf('.terraform.lock.hcl', bomb, 8);
  expect(zip.length).toBeLessThan(64 * 1024);
  expect(fileInZip(zip, '.terraform.lock.hcl')).toBeNull();
  expect(fileInZip(zipOf('.terraform.lock.hcl', bomb, 0), '.terraform.lock.hcl')).toBeNull();
  const fits = Buffer.alloc(MAX_ENTRY_BYTES, 0x20);
  expect(fileInZip(zipOf('.terraform.lock.hcl', fits, 8), '.terraform.lock.hcl')?.length).toBe(MAX_ENTRY_BYTES);
});
