import { describe, expect, it } from 'vitest';
import { BerthClient } from '../../src/client/client.js';
import type { Transport } from '../../src/client/transport.js';

/** A fake API of `total` items, paged as the API pages (`page[number]`, `page[size]`). */
function pagedTransport(total: number, asked: string[]): Transport {
  return {
    baseUrl: 'http://api.test',
    close: () => Promise.resolve(),
    send: (req: Request) => {
      const url = new URL(req.url);
      asked.push(url.search);
      const page = Number(url.searchParams.get('page[number]') ?? 1);
      const size = Number(url.searchParams.get('page[size]') ?? 20);
      const from = (page - 1) * size;
      const data = Array.from({ length: Math.max(0, Math.min(size, total - from)) }, (_, i) => ({
        id: `item-${from + i}`,
        type: 'items',
        attributes: {},
      }));
      const pages = Math.max(1, Math.ceil(total / size));
      const pagination = {
        'current-page': page,
        'page-size': size,
        'prev-page': page > 1 ? page - 1 : null,
        'next-page': page < pages ? page + 1 : null,
        'total-pages': pages,
        'total-count': total,
      };
      return Promise.resolve(new Response(JSON.stringify({ data, meta: { pagination } }), { status: 200 }));
    },
  };
}

describe('BerthClient.listAll, the one paging loop', () => {
  it('follows next-page to the end, 100 at a time, and reports progress of long lists', async () => {
    const asked: string[] = [];
    const client = new BerthClient(pagedTransport(250, asked));
    const progress: [number, number, boolean][] = [];
    client.onListProgress = (fetched, total, done) => progress.push([fetched, total, done]);
    const all = await client.listAll('/items');
    expect(all).toHaveLength(250);
    expect(new Set(all.map((r) => r.id)).size).toBe(250);
    expect(asked).toHaveLength(3);
    expect(progress).toEqual([
      [100, 250, false],
      [200, 250, false],
      [250, 250, true],
    ]);
  });

  it('stops after limit items, fetching no page it does not need', async () => {
    const asked: string[] = [];
    const client = new BerthClient(pagedTransport(250, asked));
    const some = await client.listAll('/items', {}, { limit: 5 });
    expect(some.map((r) => r.id)).toEqual(['item-0', 'item-1', 'item-2', 'item-3', 'item-4']);
    expect(asked).toHaveLength(1);
    asked.length = 0;
    const more = await client.listAll('/items', {}, { limit: 150 });
    expect(more).toHaveLength(150);
    expect(more[149].id).toBe('item-149');
    expect(asked).toHaveLength(2);
  });

  it('takes a list without pagination as one page', async () => {
    const client = new BerthClient({
      baseUrl: 'http://api.test',
      close: () => Promise.resolve(),
      send: () => Promise.resolve(new Response(JSON.stringify({ data: [{ id: 'a', type: 'x', attributes: {} }] }))),
    });
    expect(await client.listAll('/x')).toHaveLength(1);
  });
});
