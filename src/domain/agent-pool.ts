import * as v from 'valibot';
import { bool, checkAttributes, opt, str } from './attributes.js';
import { Problems } from './errors.js';

export interface AgentPool {
  id: string;
  organizationName: string;
  name: string;
  organizationScoped: boolean;
  createdAt: string;
  workspaceIds: string[];
}

export interface AgentPoolInput {
  name: string;
  organizationScoped: boolean;
}

const NAME = /^[A-Za-z0-9_.\- ]+$/;
const schema = v.looseObject({ name: opt(str()), 'organization-scoped': opt(bool()) });

export function parseAgentPoolAttributes(attributes: unknown): AgentPoolInput {
  const a = checkAttributes(schema, attributes);
  const problems = new Problems();
  const name = a.name?.trim();
  if (!name) problems.add('/data/attributes/name', "Name can't be blank");
  else if (!NAME.test(name) || name.length > 90) {
    problems.add(
      '/data/attributes/name',
      'Name may only contain letters, numbers, spaces, ".", "-" and "_" (at most 90 characters)',
    );
  }
  problems.throwIfAny();
  return { name: name!, organizationScoped: a['organization-scoped'] ?? true };
}
