import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { LocalHeaders, LocalRequest, LocalResponse } from '../../src/client/in-process-http.js';

describe('LocalHeaders', () => {
  it('is case-insensitive, joins appended values and iterates sorted lower-case names', () => {
    const h = new LocalHeaders({ 'Content-Type': 'application/json', 'X-B': '1' });
    h.append('x-b', '2');
    h.set('X-A', 'a');
    expect(h.get('content-type')).toBe('application/json');
    expect(h.get('X-B')).toBe('1, 2');
    expect(h.has('x-a')).toBe(true);
    expect([...h]).toEqual([
      ['content-type', 'application/json'],
      ['x-a', 'a'],
      ['x-b', '1, 2'],
    ]);
    h.delete('X-A');
    expect(h.get('x-a')).toBeNull();
    expect(new LocalHeaders(h).get('x-b')).toBe('1, 2');
    expect(new LocalHeaders([['A', 'b']]).get('a')).toBe('b');
  });
});

describe('LocalRequest and LocalResponse', () => {
  it('carry the method, URL, headers and a body that can be read once', async () => {
    const req = new LocalRequest(new URL('http://berth.local/api/v2/x?y=1'), {
      method: 'post',
      headers: { A: 'b' },
      body: '{"k":"\u00e9"}',
    });
    expect(req.url).toBe('http://berth.local/api/v2/x?y=1');
    expect(req.method).toBe('POST');
    expect(req.headers.get('content-length')).toBe(String(Buffer.byteLength('{"k":"\u00e9"}')));
    expect(await req.clone().json()).toEqual({ k: '\u00e9' });
    expect(await req.text()).toBe('{"k":"\u00e9"}');
    expect(req.bodyUsed).toBe(true);
    await expect(req.text()).rejects.toThrow(/already been read/);
  });

  it('responses report ok by status and give bytes back unchanged', async () => {
    const bytes = Uint8Array.from([0, 255, 7]);
    const res = new LocalResponse(bytes, { status: 201, headers: { 'Content-Type': 'application/octet-stream' } });
    expect(res.ok).toBe(true);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
    expect(new LocalResponse(null, { status: 404 }).ok).toBe(false);
    expect(await new LocalResponse(null).text()).toBe('');
    const copy = new LocalResponse(new LocalResponse('x', { status: 202 }).body, { status: 202, headers: res.headers });
    expect([copy.status, await copy.text(), copy.headers.get('content-type')]).toEqual([
      202,
      'x',
      'application/octet-stream',
    ]);
  });

  it('serve a hono app exactly as the Fetch API objects do', async () => {
    const original = { Request: globalThis.Request, Response: globalThis.Response, Headers: globalThis.Headers };
    const app = new Hono();
    app.post('/echo/:id', async (c) => {
      c.header('X-Seen', c.req.header('x-in') ?? 'none');
      return c.json({ id: c.req.param('id'), q: c.req.query('q'), body: await c.req.json() }, 201);
    });
    Object.assign(globalThis, { Request: LocalRequest, Response: LocalResponse, Headers: LocalHeaders });
    try {
      const res = (await app.fetch(
        new LocalRequest('http://berth.local/echo/7?q=a%20b', {
          method: 'POST',
          headers: { 'X-In': 'yes' },
          body: '{"n":1}',
        }) as unknown as Request,
      )) as unknown as LocalResponse;
      expect(res).toBeInstanceOf(LocalResponse);
      expect(res.status).toBe(201);
      expect(res.headers.get('x-seen')).toBe('yes');
      expect(await res.json()).toEqual({ id: '7', q: 'a b', body: { n: 1 } });
    } finally {
      Object.assign(globalThis, original);
    }
  });
});
