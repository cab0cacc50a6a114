import { expect } from 'vitest';
import { sharedDatabase } from '../helpers/store.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

export interface Answer {
  status: number;
  body: any;
  text: string;
}

/** Two `berth serve` processes on one database file, with organization `acme` created. */
export interface TwoServers {
  a: ServeProcess;
  b: ServeProcess;
  /** Calls server a (`i` even) or b (`i` odd) as the site administrator. */
  call(i: number, method: string, path: string, body?: unknown): Promise<Answer>;
  stderr(): string;
  stop(): Promise<void>;
}

export async function twoServers(): Promise<TwoServers> {
  const shared = await sharedDatabase();
  const a = await startServe(shared.location);
  const token = a.token!;
  const b = await startServe(shared.location);
  const call = async (i: number, method: string, path: string, body?: unknown): Promise<Answer> => {
    const res = await fetch(`${i % 2 === 0 ? a.url : b.url}/api/v2${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, body: text === '' ? null : JSON.parse(text) };
  };
  const org = await call(0, 'POST', '/organizations', {
    data: { type: 'organizations', attributes: { name: 'acme', email: 'a@acme.test' } },
  });
  expect(org.status, org.text).toBe(201);
  return {
    a,
    b,
    call,
    stderr: () => a.stderr() + b.stderr(),
    async stop() {
      await a.stop();
      await b.stop();
      await shared.cleanup();
    },
  };
}
