import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import { checkAttributes, nullable } from '../../../domain/common/attributes.js';
import { invalid } from '../../../domain/common/errors.js';
import { parsePage } from '../../../domain/common/paging.js';
import { commentBody, type RunEvent } from '../../../domain/runs/run-events.js';
import { commentsByIds, createComment, getComment, listComments } from '../../../services/runs/comments.js';
import { eventActors, getRunEvent, listRunEvents } from '../../../services/runs/run-events.js';
import { readResource } from '../../body.js';
import { sendCollection, sendResource, type ResourceObject } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { includesOf, pageOf } from '../../query.js';
import { serializeComment } from '../../serializers/comment.js';
import { serializeRunEvent } from '../../serializers/run-event.js';
import { serializeUserView } from '../../serializers/user.js';
import type { ServiceContext } from '../../../services/context.js';

const commentAttributes = v.looseObject({ body: commentBody() });

/** `include=` of run events (go-tfe's RunEventIncludeOpt). */
const EVENT_INCLUDES = ['actor', 'comment'] as const;

/** The resources `include=actor,comment` asks for, of the events listed. */
async function eventIncluded(ctx: ServiceContext, events: RunEvent[], include: Set<string>): Promise<ResourceObject[]> {
  const included: ResourceObject[] = [];
  if (include.has('actor')) included.push(...(await eventActors(ctx, events)).map(serializeUserView));
  if (include.has('comment')) {
    const ids = events.map((e) => e.commentId).filter((id): id is string => id !== null);
    included.push(...(await commentsByIds(ctx, ids)).map(serializeComment));
  }
  return included;
}

/**
 * The page of a run's events: HCP does not page them (clients read one answer), so a page holds
 * 100 unless `page[size]` asks for fewer.
 */
const eventPage = (c: Context<AppEnv>) => parsePage(c.req.query('page[number]'), c.req.query('page[size]') ?? '100');

/** The comments of runs and the runs' history (HCP's Comments and Run Events APIs). */
export function commentRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/runs/:id/comments', async (c) =>
    sendCollection(c, await listComments(c.get('ctx'), c.req.param('id'), pageOf(c)), serializeComment),
  );
  r.post('/runs/:id/comments', async (c) => {
    const doc = await readResource(c, 'comments');
    if (doc.attributes.body === undefined || doc.attributes.body === null)
      throw invalid('/data/attributes/body', "Body can't be blank");
    const a = checkAttributes(commentAttributes, doc.attributes);
    // go-tfe may name the run in a relationship too: it must be the path's.
    const run = (doc.relationships.run as { data?: { id?: unknown } } | undefined)?.data?.id;
    if (run !== undefined && run !== c.req.param('id'))
      throw invalid('/data/relationships/run/data/id', 'The run must be the one the path names');
    const comment = await createComment(c.get('ctx'), c.req.param('id'), a.body);
    return sendResource(c, serializeComment(comment), { status: 201 });
  });
  r.get('/comments/:id', async (c) =>
    sendResource(c, serializeComment(await getComment(c.get('ctx'), c.req.param('id')))),
  );

  r.get('/runs/:id/run-events', async (c) => {
    const include = includesOf(c, EVENT_INCLUDES);
    const paged = await listRunEvents(c.get('ctx'), c.req.param('id'), eventPage(c));
    return sendCollection(c, paged, serializeRunEvent, await eventIncluded(c.get('ctx'), paged.items, include));
  });
  r.get('/run-events/:id', async (c) => {
    const include = includesOf(c, EVENT_INCLUDES);
    const event = await getRunEvent(c.get('ctx'), c.req.param('id'));
    return sendResource(c, serializeRunEvent(event), {
      included: await eventIncluded(c.get('ctx'), [event], include),
    });
  });
  return r;
}

const actionCommentOf = nullable(commentBody());

/**
 * The `comment` of `actions/apply`, `discard`, `cancel` and `force-cancel`: HCP documents a plain
 * `{"comment": "..."}`, and go-tfe sends that or, in versions that tag it as a JSON:API attribute,
 * `{"data": {"attributes": {"comment": "..."}}}`. Null, absent or blank: no comment.
 */
export function actionComment(body: Record<string, unknown> | null): string | null {
  if (!body) return null;
  const data = body.data as { attributes?: Record<string, unknown> } | undefined;
  const nested = data && typeof data === 'object' && data.attributes && typeof data.attributes === 'object';
  const [value, pointer] =
    'comment' in body
      ? [body.comment, '/comment']
      : nested
        ? [data.attributes!.comment, '/data/attributes/comment']
        : [undefined, ''];
  // Blank is no comment: an apply is not refused for the whitespace of an empty text box.
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return null;
  const parsed = v.safeParse(actionCommentOf, value);
  if (!parsed.success) throw invalid(pointer, `Comment ${parsed.issues[0].message}`);
  return parsed.output ?? null;
}
