import chalk from 'chalk';
import type { Resource } from '../../client/jsonapi.js';
import type { CommentAttributes, RunEventAttributes } from '../../client/run-history.js';
import { humanTime } from '../output/human-time.js';
import { renderTable } from '../output/output.js';

/** A run's events with what `include=actor,comment` brought: who (a username) and the comment. */
export interface HistoryEntry {
  event: Resource<RunEventAttributes>;
  /** The username of who did it; `-` for none (berth itself, a token of no user, a deleted user). */
  by: string;
  comment: string | null;
}

const idOf = (r: Resource, name: string) => {
  const data = r.relationships?.[name]?.data;
  return data && !Array.isArray(data) ? data.id : null;
};

/** The events joined with their users and comments (from the list's `included`). */
export function historyOf(events: Resource<RunEventAttributes>[], included: Resource[]): HistoryEntry[] {
  const users = new Map(included.filter((r) => r.type === 'users').map((u) => [u.id, String(u.attributes.username)]));
  const comments = new Map(
    included
      .filter((r) => r.type === 'comments')
      .map((c) => [c.id, (c as Resource<CommentAttributes>).attributes.body]),
  );
  return events.map((event) => {
    const actor = idOf(event, 'actor');
    const comment = idOf(event, 'comment');
    return {
      event,
      by: actor === null ? '-' : (users.get(actor) ?? actor),
      comment: comment === null ? null : (comments.get(comment) ?? null),
    };
  });
}

/** `berth run events`: what happened, who did it, when, and the comment given. */
export function historyTable(entries: HistoryEntry[]): string {
  return renderTable(entries, [
    { header: 'ACTION', value: (e) => e.event.attributes.action },
    { header: 'BY', value: (e) => e.by },
    { header: 'AT', value: (e) => humanTime(e.event.attributes['created-at']) },
    { header: 'COMMENT', value: (e) => e.comment },
  ]);
}

/**
 * The comments of `berth run show`, oldest first: `owner, 14:02, 3 minutes ago (confirmed): Looks good`
 * (the action they came with, unless they were a comment alone).
 */
export function commentLines(entries: HistoryEntry[]): string[] {
  return entries
    .filter((e) => e.comment !== null)
    .map((e) => {
      const action = e.event.attributes.action === 'commented' ? '' : ` (${e.event.attributes.action})`;
      return `${e.by}, ${humanTime(e.event.attributes['created-at'])}${action}: ${e.comment}`;
    });
}

/** The comments section of `berth run show` (empty when the run has none). */
export function commentsSection(entries: HistoryEntry[]): string {
  const lines = commentLines(entries);
  return lines.length === 0
    ? ''
    : `\n\n${chalk.bold(`Comments (${lines.length})`)}\n${lines.map((l) => `  ${l}`).join('\n')}`;
}
