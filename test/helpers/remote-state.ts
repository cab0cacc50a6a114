import { expect } from 'vitest';
import type { TestApi } from './api.js';

/**
 * Makes new workspaces created without `global-remote-state` share their state with approved
 * consumers only (`default-remote-state-access: false`), for the tests of consumer lists and of
 * who reads whose state: a self-hosted berth defaults to true, as Terraform Enterprise does.
 * Self-hosted edition only (the hosted edition has no such setting, and defaults to false).
 */
export async function approvedConsumersOnly(api: TestApi): Promise<void> {
  const res = await api.patch('/api/v2/admin/general-settings', {
    data: { type: 'general-settings', attributes: { 'default-remote-state-access': false } },
  });
  expect(res.status, res.text).toBe(200);
}
