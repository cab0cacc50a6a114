import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { expect } from 'vitest';
import type { StandInPackage, ThrowawayKey } from './provider-package.js';

/**
 * Publishing stand-in providers to a `berth serve` over TLS (its throwaway certificate trusted),
 * for the Terraform suite: HCP's GPG Keys and Private Registry Providers APIs, as go-tfe calls them.
 */
export function httpsApi(baseUrl: string, caFile: string, adminToken: string) {
  const call = (method: string, url: string, body?: unknown, token: string | null = adminToken) =>
    new Promise<{ status: number; json: any }>((resolve, reject) => {
      const data = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
      const headers: Record<string, string> = {};
      if (token) headers.Authorization = `Bearer ${token}`;
      if (data)
        headers['Content-Type'] = Buffer.isBuffer(body) ? 'application/octet-stream' : 'application/vnd.api+json';
      const req = request(new URL(url, baseUrl), { method, headers, ca: readFileSync(caFile) }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => {
          const text = Buffer.concat(parts).toString();
          let json: any = null;
          try {
            json = text ? JSON.parse(text) : null;
          } catch {
            json = text;
          }
          resolve({ status: res.statusCode ?? 0, json });
        });
      });
      req.on('error', reject);
      req.end(data);
    });

  async function publish(org: string, key: ThrowawayKey, p: StandInPackage) {
    const k = await call('POST', '/api/registry/private/v2/gpg-keys', {
      data: { type: 'gpg-keys', attributes: { namespace: org, 'ascii-armor': key.asciiArmor } },
    });
    expect([201, 422]).toContain(k.status);
    const base = `/api/v2/organizations/${org}/registry-providers`;
    const made = await call('POST', base, {
      data: { type: 'registry-providers', attributes: { name: p.name, namespace: org, 'registry-name': 'private' } },
    });
    expect(made.status).toBe(201);
    const v = await call('POST', `${base}/private/${org}/${p.name}/versions`, {
      data: {
        type: 'registry-provider-versions',
        attributes: { version: p.version, 'key-id': key.keyId, protocols: ['5.0'] },
      },
    });
    expect(v.status).toBe(201);
    expect((await call('PUT', v.json.data.links['shasums-upload'], p.shasums, null)).status).toBe(200);
    expect((await call('PUT', v.json.data.links['shasums-sig-upload'], p.signature, null)).status).toBe(200);
    const pl = await call('POST', `${base}/private/${org}/${p.name}/versions/${p.version}/platforms`, {
      data: {
        type: 'registry-provider-platforms',
        attributes: { os: p.os, arch: p.arch, shasum: p.shasum, filename: p.filename },
      },
    });
    expect(pl.status).toBe(201);
    expect((await call('PUT', pl.json.data.links['provider-binary-upload'], p.zip, null)).status).toBe(200);
  }

  return { call, publish };
}
