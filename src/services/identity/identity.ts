import type { Actor } from '../../domain/permissions/actor.js';
import type { ServiceContext } from '../context.js';

export interface Identity {
  kind: Actor['kind'];
  tokenId: string | null;
  userId: string | null;
  username: string | null;
  teamId: string | null;
  teamName: string | null;
  organizationName: string | null;
  siteAdmin: boolean;
}

/** Who the current token acts as (for `berth whoami`). */
export async function whoami(ctx: ServiceContext): Promise<Identity> {
  const a = ctx.actor;
  const base: Identity = {
    kind: a.kind,
    tokenId: a.tokenId,
    userId: null,
    username: null,
    teamId: null,
    teamName: null,
    organizationName: null,
    siteAdmin: false,
  };
  switch (a.kind) {
    case 'site-admin':
      return { ...base, siteAdmin: true };
    case 'user':
      return { ...base, userId: a.userId, username: a.username, siteAdmin: a.siteAdmin };
    case 'team': {
      const team = await ctx.db
        .selectFrom('teams')
        .innerJoin('organizations', 'organizations.id', 'teams.organization_id')
        .select(['teams.name', 'organizations.name as org'])
        .where('teams.id', '=', a.teamId)
        .executeTakeFirst();
      return { ...base, teamId: a.teamId, teamName: team?.name ?? null, organizationName: team?.org ?? null };
    }
    case 'organization':
    case 'audit-trail':
    case 'run': {
      const org = await ctx.db
        .selectFrom('organizations')
        .select('name')
        .where('id', '=', a.organizationId)
        .executeTakeFirst();
      return { ...base, organizationName: org?.name ?? null };
    }
  }
}
