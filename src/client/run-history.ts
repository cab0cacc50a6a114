import type { BerthClient } from './client.js';
import type { Attributes, Resource, SingleResult } from './jsonapi.js';

const enc = encodeURIComponent;

export interface CommentAttributes extends Attributes {
  body: string;
  'created-at': string;
}

export interface RunEventAttributes extends Attributes {
  action: string;
  description: string | null;
  'created-at': string;
}

/** A run's comments and history (HCP's Comments and Run Events APIs). */
export class RunHistoryClient {
  constructor(private readonly client: BerthClient) {}

  comment(runId: string, body: string): Promise<SingleResult<CommentAttributes>> {
    return this.client.create<CommentAttributes>(`/runs/${enc(runId)}/comments`, 'comments', { body });
  }

  /** Every event of the run, oldest first, with the users who made them and their comments. */
  events(runId: string): Promise<{ data: Resource<RunEventAttributes>[]; included: Resource[] }> {
    return this.client.listPages<RunEventAttributes>(`/runs/${enc(runId)}/run-events`, { include: 'actor,comment' });
  }
}
