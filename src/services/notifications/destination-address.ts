import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Which addresses a notification may be sent to. Unless the instance allows private
 * destinations (delivery-settings.ts), a URL's host must resolve only to public addresses: every
 * address its name resolves to is checked (one private address among public ones refuses it),
 * when the configuration is saved and again at each delivery, where the connection is made to an
 * address that was just checked (`checkedLookup`), so that a name re-pointed at a private address
 * after the check (DNS rebinding) reaches nothing.
 */

/** Resolves a host name to all its addresses (node:dns's `lookup` with `all: true`, or a test's). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv6');

/** The IPv4 address an IPv4-mapped or -compatible IPv6 address carries (`::ffff:10.0.0.1`), if any. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^::(ffff:)?(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[2];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const hi = parseInt(hex[1], 16);
  const lo = parseInt(hex[2], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Whether an address is private, loopback, link-local, reserved or otherwise not a public host's. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return PRIVATE.check(bare, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(bare);
    return v4 !== null ? PRIVATE.check(v4, 'ipv4') : PRIVATE.check(bare, 'ipv6');
  }
  return true;
}

export interface DestinationCheck {
  allowPrivate: boolean;
  resolve?: Resolver;
}

/** Why `url`'s host may not be reached (null: it may), after resolving it. */
export async function destinationProblem(url: string, check: DestinationCheck): Promise<string | null> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (check.allowPrivate) return null;
  if (isIP(host) !== 0)
    return isPrivateAddress(host)
      ? `URL's host ${host} is a private or loopback address, which this berth does not allow`
      : null;
  let addresses: { address: string }[];
  try {
    addresses = await (check.resolve ?? systemResolver)(host);
  } catch (err) {
    return `URL's host ${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
  if (addresses.length === 0) return `URL's host ${host} does not resolve`;
  const bad = addresses.find((a) => isPrivateAddress(a.address));
  return bad
    ? `URL's host ${host} resolves to ${bad.address}, a private or loopback address, which this berth does not allow`
    : null;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

/**
 * A `lookup` for node:http's requests that resolves the host itself, refuses it when any of its
 * addresses is private (unless allowed), and connects to the first address it checked.
 */
export function checkedLookup(check: DestinationCheck) {
  return (hostname: string, options: { all?: boolean } | undefined, callback: LookupCallback): void => {
    (check.resolve ?? systemResolver)(hostname).then(
      (addresses) => {
        const bad = check.allowPrivate ? undefined : addresses.find((a) => isPrivateAddress(a.address));
        if (addresses.length === 0 || bad) {
          const err: NodeJS.ErrnoException = new Error(
            bad
              ? `${hostname} resolves to ${bad.address}, a private or loopback address, which this berth does not allow`
              : `${hostname} does not resolve`,
          );
          err.code = bad ? 'EPRIVATEADDRESS' : 'ENOTFOUND';
          callback(err, options?.all ? [] : '', 0);
          return;
        }
        // Node 20 connects with autoSelectFamily, which asks for every address (`all`): the checked ones.
        if (options?.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, options?.all ? [] : '', 0),
    );
  };
}
