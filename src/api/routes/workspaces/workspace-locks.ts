import { Hono, type Context } from 'hono';
import { BerthError } from '../../../domain/common/errors.js';
import { requireLength, TEXT_LIMITS } from '../../../domain/common/limits.js';
import { forceUnlockWorkspace, lockWorkspace, unlockWorkspace } from '../../../services/workspaces/workspace-locks.js';
import { readJson } from '../../body.js';
import { sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { serializeWorkspace } from '../../serializers/workspace.js';

/**
 * The lock reason from any of the bodies clients send: `{"reason": ...}` (docs),
 * `{"data":{"type":"","attributes":{"reason":...}}}` (go-tfe), `{"data":{"type":""}}`, or none.
 */
async function reasonOf(c: Context<AppEnv>): Promise<string> {
  const body = await readJson(c, { optional: true });
  checkLockData(body?.data);
  const data = body?.data as { attributes?: { reason?: unknown } } | undefined;
  const reason = body?.reason !== undefined ? body.reason : data?.attributes?.reason;
  if (reason === undefined || reason === null) return '';
  if (typeof reason !== 'string') {
    throw new BerthError([
      {
        status: 422,
        title: 'invalid attribute',
        detail: 'Reason must be a string',
        pointer: body?.reason !== undefined ? '/reason' : '/data/attributes/reason',
      },
    ]);
  }
  const pointer = body?.reason !== undefined ? '/reason' : '/data/attributes/reason';
  requireLength(pointer, 'Reason', reason, TEXT_LIMITS.lockReason);
  return reason;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A lock body's `data`, when present, is one resource object of type `""` (go-tfe) or
 * `workspaces`, whose `attributes` are an object: anything else is a 422 that locks nothing.
 */
function checkLockData(data: unknown): void {
  if (data === undefined || data === null) return;
  const refuse = (detail: string, pointer: string) => {
    throw new BerthError([{ status: 422, title: 'invalid attribute', detail, pointer }]);
  };
  if (!isObject(data)) return refuse('data must be a resource object', '/data');
  if (data.type !== undefined && data.type !== '' && data.type !== 'workspaces')
    refuse('type must be "workspaces" (or empty)', '/data/type');
  if (data.attributes !== undefined && data.attributes !== null && !isObject(data.attributes))
    refuse('attributes must be an object', '/data/attributes');
}

export function workspaceLockRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  const ws = (c: Context<AppEnv>) => ({ id: c.req.param('id')! });
  const edition = (c: Context<AppEnv>) => ({ edition: c.get('ctx').settings.edition });

  r.post('/workspaces/:id/actions/lock', async (c) => {
    const reason = await reasonOf(c);
    return sendResource(c, serializeWorkspace(await lockWorkspace(c.get('ctx'), ws(c), reason), edition(c)));
  });
  r.post('/workspaces/:id/actions/unlock', async (c) =>
    sendResource(c, serializeWorkspace(await unlockWorkspace(c.get('ctx'), ws(c)), edition(c))),
  );
  r.post('/workspaces/:id/actions/force-unlock', async (c) =>
    sendResource(c, serializeWorkspace(await forceUnlockWorkspace(c.get('ctx'), ws(c)), edition(c))),
  );
  return r;
}
