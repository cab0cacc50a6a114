import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { sendLargeResource, sendResource, type ResourceObject } from '../../../src/api/documents.js';

describe('sendLargeResource (a long included list rendered a slice at a time)', () => {
  const data: ResourceObject = { id: 'team-1', type: 'teams', attributes: { name: 'a "quoted" \u{1F600} name' } };
  const included: ResourceObject[] = Array.from({ length: 250 }, (_, i) => ({
    // Every tenth repeats an earlier one: dropped, as sendResource drops it.
    id: `ou-${i % 10 === 9 ? i - 2 : i}`,
    type: i % 2 ? 'organization-memberships' : 'users',
    attributes: { email: `m${i}@example.test`, teams: Array.from({ length: 3 }, (_, j) => `team-${j}`) },
  }));
  const app = new Hono();
  app.get('/large', (c) => sendLargeResource(c, data, included));
  app.get('/whole', (c) => sendResource(c, data, { included }));
  app.get('/large-none', (c) => sendLargeResource(c, data, []));
  // The same resources made on demand, in uneven slices (one of them empty).
  app.get('/large-lazy', (c) =>
    sendLargeResource(
      c,
      data,
      (async function* () {
        for (const [from, to] of [
          [0, 7],
          [7, 7],
          [7, 180],
          [180, 250],
        ]) {
          await Promise.resolve();
          yield included.slice(from, to);
        }
      })(),
    ),
  );
  app.get('/whole-none', (c) => sendResource(c, data, { included: [] }));

  it('answers the very text sendResource answers, with the same headers', async () => {
    for (const [large, whole] of [
      ['/large', '/whole'],
      ['/large-none', '/whole-none'],
      ['/large-lazy', '/whole'],
    ]) {
      const a = await app.request(large);
      const b = await app.request(whole);
      expect(a.status).toBe(200);
      expect(await a.text()).toBe(await b.text());
      expect(Object.fromEntries(a.headers)).toEqual(Object.fromEntries(b.headers));
    }
    const doc = (await (await app.request('/large')).json()) as { included: unknown[] };
    expect(doc.included).toHaveLength(250 - 25);
  });
});
