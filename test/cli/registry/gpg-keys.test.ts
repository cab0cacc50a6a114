import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, runCli, tempDb } from '../../helpers/cli.js';
import { throwawayKey } from '../../helpers/provider-package.js';

/** `berth registry gpg-key add|list|delete` (issue 44) in local mode, against the built CLI. */
describe('registry gpg-key', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  const json = jsonOf(cli);
  const key = throwawayKey('Acme Releases <releases@acme.test>');
  const other = throwawayKey('Other <other@acme.test>');
  const keyFile = join(tmp.dir, 'key.asc');

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    writeFileSync(keyFile, key.asciiArmor);
  });
  afterAll(() => tmp.cleanup());

  it('adds an armored key from a file (its key ID and user ID read from it), and another from stdin with --json', async () => {
    const added = await cli('registry', 'gpg-key', 'add', keyFile);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout.trim()).toBe(`Added GPG key ${key.keyId} (Acme Releases <releases@acme.test>) to acme.`);
    const fromStdin = await runCli(['registry', 'gpg-key', 'add', '-', '--json'], env, other.asciiArmor);
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect(JSON.parse(fromStdin.stdout)).toMatchObject({
      type: 'gpg-keys',
      attributes: { 'key-id': other.keyId, namespace: 'acme' },
    });
  });

  it('refuses a file that is no public key (exit 5, nothing added) and the same key twice (the API says so)', async () => {
    const junk = join(tmp.dir, 'junk.asc');
    writeFileSync(junk, 'not a key\n');
    const bad = await cli('registry', 'gpg-key', 'add', junk);
    expect(bad.code).toBe(5);
    expect(bad.stderr).toContain(`${junk} is not an armored OpenPGP public key`);
    expect(bad.stderr).toContain('nothing was added');
    const twice = await cli('registry', 'gpg-key', 'add', keyFile);
    expect(twice.code).toBe(5);
    expect(twice.stderr).toContain(`Key ${key.keyId} has already been added to this namespace`);
    const missing = await cli('registry', 'gpg-key', 'add', join(tmp.dir, 'none.asc'));
    expect(missing.code).toBe(2);
    expect((await json('registry', 'gpg-key', 'list')).length).toBe(2);
  });

  it('lists the keys oldest first with their user IDs; --json gives the API resources', async () => {
    const list = await cli('registry', 'gpg-key', 'list');
    expect(list.code, list.stderr).toBe(0);
    const rows = list.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^KEY ID\s+USER\s+CREATED$/);
    expect(rows[1]).toMatch(new RegExp(`^${key.keyId}\\s+Acme Releases <releases@acme.test>\\s+just now$`));
    expect(rows[2]).toContain(other.keyId);
    const keys = await json('registry', 'gpg-key', 'list');
    expect(keys.map((k: any) => k.attributes['key-id'])).toEqual([key.keyId, other.keyId]);
    expect(keys[0].attributes['ascii-armor']).toBe(key.asciiArmor);
  });

  it('deletes a key only with --yes off a terminal', async () => {
    const refused = await cli('registry', 'gpg-key', 'delete', other.keyId.toLowerCase());
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`refusing to delete GPG key ${other.keyId} of acme without --yes`);
    const gone = await cli('registry', 'gpg-key', 'delete', other.keyId, '--yes', '--json');
    expect(gone.code, gone.stderr).toBe(0);
    expect(JSON.parse(gone.stdout)).toEqual({ 'key-id': other.keyId, namespace: 'acme', deleted: true });
    expect((await json('registry', 'gpg-key', 'list')).map((k: any) => k.attributes['key-id'])).toEqual([key.keyId]);
    const again = await cli('registry', 'gpg-key', 'delete', other.keyId, '--yes');
    expect(again.code).toBe(3);
    expect(again.stderr).toContain(`GPG key ${other.keyId} is not in acme`);
    const malformed = await cli('registry', 'gpg-key', 'delete', 'abc', '--yes');
    expect(malformed.code).toBe(2);
  });

  it("another organization's keys are not this one's", async () => {
    expect((await cli('org', 'create', 'other', '--email', 'ops@other.test')).code).toBe(0);
    expect(await json('registry', 'gpg-key', 'list', '--org', 'other')).toEqual([]);
    const del = await cli('registry', 'gpg-key', 'delete', key.keyId, '--org', 'other', '--yes');
    expect(del.code).toBe(3);
  });
});
