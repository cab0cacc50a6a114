import { expect } from 'vitest';
import type { TestApi } from '../../helpers/api.js';
import type { StandInPackage, ThrowawayKey } from '../../helpers/provider-package.js';

/** Publishing a stand-in provider through HCP's APIs, as go-tfe and the tfe provider do. */

export const PROVIDERS = (org: string) => `/api/v2/organizations/${org}/registry-providers`;

/** A request with a binary body (PUT to a signed URL, a mirror push), with or without a token. */
export async function sendBytes(
  api: TestApi,
  method: string,
  url: string,
  body: Buffer,
  token: string | null = null,
): Promise<{ status: number; text: string; json: any }> {
  const headers: Record<string, string> = { 'Content-Type': 'application/octet-stream' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await api.app.fetch(new Request(new URL(url, 'http://berth.test'), { method, headers, body }));
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, text, json };
}

export async function fetchBytes(api: TestApi, url: string, token: string | null = null) {
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  const res = await api.app.fetch(new Request(new URL(url, 'http://berth.test'), { headers }));
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

export async function addKey(api: TestApi, org: string, key: ThrowawayKey, token?: string) {
  const res = await api.post(
    '/api/registry/private/v2/gpg-keys',
    { data: { type: 'gpg-keys', attributes: { namespace: org, 'ascii-armor': key.asciiArmor } } },
    { token },
  );
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

/** Creates the provider, its version and platform and uploads the three files. */
export async function publish(api: TestApi, org: string, key: ThrowawayKey, pkg: StandInPackage, token?: string) {
  const made = await api.post(
    PROVIDERS(org),
    {
      data: { type: 'registry-providers', attributes: { name: pkg.name, namespace: org, 'registry-name': 'private' } },
    },
    { token },
  );
  expect([201, 422]).toContain(made.status);
  const base = `${PROVIDERS(org)}/private/${org}/${pkg.name}`;
  const version = await api.post(
    `${base}/versions`,
    {
      data: {
        type: 'registry-provider-versions',
        attributes: { version: pkg.version, 'key-id': key.keyId, protocols: ['5.0'] },
      },
    },
    { token },
  );
  expect(version.status, version.text).toBe(201);
  const links = version.body.data.links;
  expect((await sendBytes(api, 'PUT', links['shasums-upload'], pkg.shasums)).status).toBe(200);
  expect((await sendBytes(api, 'PUT', links['shasums-sig-upload'], pkg.signature)).status).toBe(200);
  const platform = await api.post(
    `${base}/versions/${pkg.version}/platforms`,
    {
      data: {
        type: 'registry-provider-platforms',
        attributes: { os: pkg.os, arch: pkg.arch, shasum: pkg.shasum, filename: pkg.filename },
      },
    },
    { token },
  );
  expect(platform.status, platform.text).toBe(201);
  const up = await sendBytes(api, 'PUT', platform.body.data.links['provider-binary-upload'], pkg.zip);
  expect(up.status, up.text).toBe(200);
  return { base, version: version.body.data, platform: platform.body.data };
}
