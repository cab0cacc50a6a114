import { gzipSync } from 'node:zlib';
import { expect } from 'vitest';
import { createApp } from '../../src/api/app.js';
import type { Clock } from '../../src/domain/common/clock.js';
import { DEFAULT_SETTINGS, type InstanceSettings } from '../../src/services/context.js';
import { finishPhase, type PhaseResult } from '../../src/services/runs/run-phases.js';
import { claimRun } from '../../src/services/runs/run-claim.js';
import { accessFixture, type AccessFixture } from './access.js';
import { TestApi, type ApiResponse } from './api.js';

/**
 * Runs that berth executes, driven without terraform: the API as a client sees it, and the
 * executor's side (claim, finishPhase) called straight on the services, so every transition is
 * immediate and deterministic.
 */

export const EXECUTING: InstanceSettings = { ...DEFAULT_SETTINGS, executesRuns: true };
export const P = '/api/v2';

/** A fresh executing instance with organization acme, projects Alpha and Beta and workspace `web`. */
export async function executingFixture(): Promise<AccessFixture> {
  return accessFixture(await TestApi.create({ settings: EXECUTING }));
}

/** A small gzip stream (the upload checks the gzip header; the executor, not the tests, reads the tar). */
export const ARCHIVE = gzipSync(Buffer.from('main.tf\0resource "terraform_data" "x" {}'));

/** A request to the app, with a byte body (TestApi sends strings). */
export async function sendBytes(
  app: ReturnType<typeof createApp>,
  method: string,
  url: string,
  body: Uint8Array,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  const u = new URL(url, 'http://berth.test');
  const res = await app.fetch(
    new Request(`http://berth.test${u.pathname}${u.search}`, {
      method,
      headers: { 'Content-Type': 'application/octet-stream', ...headers },
      body,
    }),
  );
  const text = await res.text();
  let parsed: any = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** The executing app on the same store, with its own clock (the signed URLs' expiry). */
export function appWithClock(api: TestApi, clock: Clock) {
  return createApp({ db: api.store.db, settings: EXECUTING, clock });
}

export const cvBody = (attributes: Record<string, unknown> = {}) => ({
  data: { type: 'configuration-versions', attributes },
});

/** Creates a configuration version of `ws` and, unless told otherwise, uploads ARCHIVE to it. */
export async function newConfiguration(
  f: AccessFixture,
  ws: string,
  options: { upload?: boolean; autoQueueRuns?: boolean; speculative?: boolean; token?: string } = {},
): Promise<any> {
  const res = await f.api.post(
    `${P}/workspaces/${ws}/configuration-versions`,
    cvBody({ 'auto-queue-runs': options.autoQueueRuns ?? false, speculative: options.speculative ?? false }),
    { token: options.token ?? f.owner.token },
  );
  expect(res.status, res.text).toBe(201);
  if (options.upload !== false) {
    const up = await sendBytes(f.api.app, 'PUT', res.body.data.attributes['upload-url'], ARCHIVE);
    expect(up.status, up.text).toBe(200);
  }
  return res.body.data;
}

export const runBody = (
  ws: string,
  attributes: Record<string, unknown> = {},
  cv?: string,
): Record<string, unknown> => ({
  data: {
    type: 'runs',
    attributes,
    relationships: {
      workspace: { data: { type: 'workspaces', id: ws } },
      ...(cv ? { 'configuration-version': { data: { type: 'configuration-versions', id: cv } } } : {}),
    },
  },
});

/** Queues a run of `ws` (the workspace's newest uploaded configuration) and answers its document. */
export async function queueRun(
  f: AccessFixture,
  ws: string,
  attributes: Record<string, unknown> = {},
  token = f.owner.token,
): Promise<any> {
  const res = await f.api.post(`${P}/runs`, runBody(ws, attributes), { token });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

export const now = () => new Date().toISOString();

/** The executor's side: claims the next queued phase; it must be `runId`'s `phase`. */
export async function claim(f: AccessFixture, runId: string, phase: 'plan' | 'apply'): Promise<void> {
  const claimed = await claimRun(f.api.store.db, 'test-executor', now());
  expect(claimed && { runId: claimed.runId, phase: claimed.phase }).toEqual({ runId, phase });
}

export const PLANNED_CHANGES: PhaseResult = {
  outcome: 'finished',
  hasChanges: true,
  counts: { additions: 1, changes: 0, destructions: 0 },
};

/** The executor's side: ends `runId`'s phase. */
export function finish(
  f: AccessFixture,
  runId: string,
  phase: 'plan' | 'apply',
  result: PhaseResult = PLANNED_CHANGES,
) {
  return finishPhase(f.api.store.db, runId, phase, result, now());
}

export async function runStatus(f: AccessFixture, runId: string): Promise<string> {
  const res = await f.api.get(`${P}/runs/${runId}`, { token: f.owner.token });
  expect(res.status, res.text).toBe(200);
  return res.body.data.attributes.status;
}

export async function workspaceDoc(f: AccessFixture, ws: string, query = ''): Promise<any> {
  const res = await f.api.get(`${P}/workspaces/${ws}${query}`, { token: f.owner.token });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** A raw state (format 4) an apply could write: `serial`, of `lineage`, no resources, `outputs`. */
export const stateOf = (serial: number, lineage: string, outputs: Record<string, unknown> = {}): Buffer =>
  Buffer.from(JSON.stringify({ version: 4, terraform_version: '1.11.4', serial, lineage, outputs, resources: [] }));
