import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../helpers/serve.js';
import { freshPostgresSchema } from '../helpers/store.js';

/** A console sign-in code works once, also when two instances on one database are asked at once. */
describe('console sign-in links across two serve instances', () => {
  let schema: Awaited<ReturnType<typeof freshPostgresSchema>>;
  let a: ServeProcess;
  let b: ServeProcess;
  let token: string;

  const post = (server: ServeProcess, path: string, body?: unknown, auth = true) =>
    fetch(`${server.url}/api/v2${path}`, {
      method: 'POST',
      headers: {
        ...(auth ? { Authorization: `Bearer ${token}` } : {}),
        'Content-Type': 'application/vnd.api+json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    schema = await freshPostgresSchema();
    a = await startServe(schema.url);
    b = await startServe(schema.url);
    token = a.token!;
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await schema?.drop();
  });

  it('trades each code exactly once when both instances race for it', async () => {
    for (let round = 0; round < 5; round++) {
      const link = await post(round % 2 === 0 ? a : b, '/console/sign-in-links');
      expect(link.status).toBe(201);
      const code = ((await link.json()) as { data: { attributes: { code: string } } }).data.attributes.code;
      const body = { data: { type: 'console-sign-ins', attributes: { code } } };
      const answers = await Promise.all(
        [a, b, a, b, a, b].map((server) => post(server, '/console/sign-ins', body, false)),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([201, 404, 404, 404, 404, 404]);
    }
  });
});
