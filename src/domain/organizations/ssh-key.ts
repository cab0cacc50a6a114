import { Problems } from '../common/errors.js';
import { isPlainText, NOT_TEXT, tooLongDetail } from '../common/limits.js';
import { charLength } from '../common/text.js';

/** An SSH key of an organization. The key text is write-only and never part of this object. */
export interface SshKey {
  id: string;
  organizationName: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

export interface SshKeyInput {
  name?: string;
  value?: string;
}

export const MAX_SSH_KEY_NAME = 255;
export const MAX_SSH_KEY_VALUE = 16384;

/** `name` and `value` (both required on create, optional on update, never empty). */
export function parseSshKeyInput(attributes: Record<string, unknown>, mode: 'create' | 'update'): SshKeyInput {
  const problems = new Problems();
  const out: SshKeyInput = {};
  for (const [member, label, max] of [
    ['name', 'Name', MAX_SSH_KEY_NAME],
    ['value', 'Value', MAX_SSH_KEY_VALUE],
  ] as const) {
    const v = attributes[member];
    const pointer = `/data/attributes/${member}`;
    if (v === undefined) {
      if (mode === 'create') problems.add(pointer, `${label} can't be blank`);
      continue;
    }
    if (typeof v !== 'string') problems.add(pointer, `${label} must be a string`);
    else if (v.trim() === '') problems.add(pointer, `${label} can't be blank`);
    else if (charLength(v) > max) problems.add(pointer, tooLongDetail(label, max));
    else if (!isPlainText(v)) problems.add(pointer, `${label} ${NOT_TEXT}`);
    else out[member] = v;
  }
  problems.throwIfAny();
  return out;
}

/**
 * The key of `PATCH /workspaces/:id/relationships/ssh-key`: go-tfe's
 * `{"data":{"type":"workspaces","attributes":{"id":"sshkey-…"|null}}}` or the spec's
 * `{"data":{"type":"ssh-keys","id":"sshkey-…"}}` / `{"data":null}`. Returns null to unassign.
 */
export function parseSshKeyAssignment(body: Record<string, unknown>): string | null {
  const problems = new Problems();
  if (!('data' in body)) {
    problems.add('/data', 'request body must contain a data member');
    problems.throwIfAny();
  }
  const data = body.data;
  if (data === null) return null;
  if (typeof data !== 'object' || Array.isArray(data)) {
    problems.add('/data', 'data must be an object or null');
    problems.throwIfAny();
  }
  const d = data as Record<string, unknown>;
  let id: unknown;
  let pointer: string;
  if (d.type === 'ssh-keys') {
    id = d.id;
    pointer = '/data/id';
  } else if (d.type === 'workspaces') {
    const attrs = d.attributes;
    if (attrs === null || typeof attrs !== 'object' || Array.isArray(attrs) || !('id' in attrs)) {
      problems.add('/data/attributes/id', 'the SSH key id is required (null to unassign)');
      problems.throwIfAny();
    }
    id = (attrs as Record<string, unknown>).id;
    pointer = '/data/attributes/id';
  } else {
    problems.add('/data/type', 'type must be "workspaces" (with attributes.id) or "ssh-keys" (with id)');
    problems.throwIfAny();
    return null;
  }
  if (id === null) return null;
  if (typeof id !== 'string' || id.trim() === '')
    problems.add(pointer, 'SSH key id must be a non-empty string or null');
  problems.throwIfAny();
  return id as string;
}

/**
 * Why `text` is not an SSH private key, or null when it looks like one: a PEM or OpenSSH private
 * key block (`-----BEGIN ... PRIVATE KEY-----` to its `END` line). A public key is the common
 * slip (`id_ed25519.pub` for `id_ed25519`). The API stores any text, as HCP Terraform does; the
 * CLI asks this before it sends a key.
 */
export function privateKeyProblem(text: string): string | null {
  const t = text.trim();
  if (
    /^(ssh-(rsa|dss|ed25519)|ecdsa-sha2-|sk-(ssh|ecdsa)-)\S*\s+[A-Za-z0-9+/=]+/.test(t) ||
    /^-----BEGIN (RSA |EC )?PUBLIC KEY-----/.test(t)
  )
    return 'this is a public key: give the private key (e.g. ~/.ssh/id_ed25519, not id_ed25519.pub)';
  const begin = /^-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY)-----\r?\n/.exec(t);
  if (!begin || !t.endsWith(`-----END ${begin[1]}-----`))
    return 'this does not look like an SSH private key: expected a PEM or OpenSSH private key, from "-----BEGIN ... PRIVATE KEY-----" to its "-----END ... PRIVATE KEY-----" line';
  return null;
}
