import { describe, expect, it } from 'vitest';
import { readArmoredKey, readArmoredKeyDetails } from '../../src/domain/registry/gpg-armor.js';
import { readDetachedSignature } from '../../src/domain/registry/gpg-signature.js';
import { throwawayKey } from '../helpers/provider-package.js';
import { armorSignature, withSubkey } from '../helpers/provider-release.js';

/** What `berth registry provider publish` and `gpg-key` read of OpenPGP data (issue 44). */
describe('OpenPGP: detached signatures and key details', () => {
  const key = throwawayKey('Acme Releases <releases@acme.test>');
  const data = Buffer.from('abc  terraform-provider-x_1.0.0_linux_amd64.zip\n');

  it("reads a binary detached signature's issuer key ID, and an armored one's (as binary)", () => {
    const binary = key.sign(data);
    expect(readDetachedSignature(binary)).toEqual({ keyId: key.keyId, binary });
    const armored = readDetachedSignature(Buffer.from(armorSignature(binary)));
    expect(armored).toEqual({ keyId: key.keyId, binary });
  });

  it('refuses what is no signature, with the reason', () => {
    expect(readDetachedSignature(Buffer.from('hello'))).toBe('it holds no OpenPGP packet');
    expect(readDetachedSignature(Buffer.from(key.asciiArmor))).toBe('it holds no OpenPGP packet');
    const publicKeyPackets = Buffer.from(
      key.asciiArmor
        .split('\n')
        .filter((l) => l !== '' && !l.startsWith('-') && !l.startsWith('='))
        .join(''),
      'base64',
    );
    expect(readDetachedSignature(publicKeyPackets.subarray(0, 10))).toBe('a packet is cut short');
    expect(readDetachedSignature(Buffer.from('-----BEGIN PGP SIGNATURE-----\n\n!!!\n'))).toMatch(/has no/);
  });

  it("reads a key's user IDs and subkeys' key IDs beside its primary key ID", () => {
    const sub = throwawayKey('sub');
    const details = readArmoredKeyDetails(withSubkey(key, sub));
    expect(details).toEqual({
      keyId: key.keyId,
      fingerprint: key.fingerprint,
      subkeyIds: [sub.keyId],
      userIds: ['Acme Releases <releases@acme.test>'],
    });
    expect(readArmoredKey(key.asciiArmor)).toEqual({ keyId: key.keyId, fingerprint: key.fingerprint });
    expect(readArmoredKeyDetails('nothing')).toMatch(/does not start/);
  });
});
