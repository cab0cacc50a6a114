import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoServers, type TwoServers } from './two-servers.js';

/** 100 concurrent creates of one workspace name (in three spellings) over two serve processes. */
describe('100 concurrent creates of the same workspace name', () => {
  let s: TwoServers;
  beforeAll(async () => {
    s = await twoServers();
  });
  afterAll(() => s?.stop());

  it('exactly one 201; the other 99 get 422 "Name has already been taken" at the name; one workspace stored', async () => {
    const spellings = ['contested', 'Contested', 'CONTESTED'];
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        s.call(i, 'POST', '/organizations/acme/workspaces', {
          data: {
            type: 'workspaces',
            attributes: { name: spellings[i % 3], description: `attempt ${i}` },
            relationships: {
              'tag-bindings': { data: [{ type: 'tag-bindings', attributes: { key: 'attempt', value: String(i) } }] },
            },
          },
        }),
      ),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    const rejected = answers.filter((r) => r.status !== 201);
    expect(rejected).toHaveLength(99);
    for (const r of rejected) {
      expect(r.status, r.text).toBe(422);
      expect(r.body).toEqual({
        errors: [
          {
            status: '422',
            title: 'invalid attribute',
            detail: 'Name has already been taken',
            source: { pointer: '/data/attributes/name' },
          },
        ],
      });
    }
    const list = await s.call(0, 'GET', '/organizations/acme/workspaces?search[name]=contested');
    expect(list.body.data).toHaveLength(1);
    const winner = answers.find((r) => r.status === 201)!.body.data;
    expect(list.body.data[0].id).toBe(winner.id);
    // The winner's own bindings, and no binding of a losing attempt.
    const bindings = await s.call(1, 'GET', `/workspaces/${winner.id}/tag-bindings`);
    expect(bindings.body.data.map((t: any) => t.attributes)).toEqual([
      expect.objectContaining({ key: 'attempt', value: winner.attributes.description.replace('attempt ', '') }),
    ]);
    expect(s.stderr()).not.toMatch(/database is locked|unexpected error/i);
  });
});
