import type { IncomingMessage } from 'node:http';
import { Hono } from 'hono';
import { LinearRouter } from 'hono/router/linear-router';
import { BerthError, notFound, payloadTooLarge } from '../domain/common/errors.js';
import { authMiddleware } from './auth.js';
import { BODY_LIMIT } from './body.js';
import { requestBodyLimit } from './body-limit.js';
import type { AppEnv, AppOptions } from './env.js';
import { internalError, sendError } from './errors.js';
import { clientClosedRequest, isClientAbort } from './client-abort.js';
import { requestIdMiddleware } from './request-id.js';
import { auditMiddleware } from './audit.js';
import { auditTrailRoutes } from './routes/instance/audit-trail.js';
import { agentPoolRoutes } from './routes/agents/agent-pools.js';
import { agentProtocolRoutes } from './routes/agents/agent-protocol.js';
import { agentRoutes } from './routes/agents/agents.js';
import { agentTokenRoutes } from './routes/agents/agent-tokens.js';
import { DEFAULT_AGENT_TIMEOUT_MS } from '../services/agents/agent-liveness.js';
import { healthRoutes } from './routes/instance/health.js';
import { metaRoutes } from './routes/instance/meta.js';
import { organizationRoutes } from './routes/organizations/organizations.js';
import { teamRoutes } from './routes/teams/teams.js';
import { teamTokenRoutes } from './routes/teams/team-tokens.js';
import { teamMemberRoutes } from './routes/teams/team-members.js';
import { accountRoutes } from './routes/identity/account.js';
import { organizationMembershipRoutes } from './routes/organizations/organization-memberships.js';
import { teamAccessRoutes } from './routes/teams/team-access.js';
import { tokenRoutes } from './routes/identity/tokens.js';
import { projectRoutes } from './routes/projects/projects.js';
import { projectWorkspaceRoutes } from './routes/projects/project-workspaces.js';
import { organizationTagRoutes } from './routes/organizations/organization-tags.js';
import { userRoutes } from './routes/identity/users.js';
import { adminSettingsRoutes } from './routes/instance/admin-settings.js';
import { workspaceRoutes } from './routes/workspaces/workspaces.js';
import { workspaceRelationRoutes } from './routes/workspaces/workspace-relations.js';
import { runTriggerRoutes } from './routes/workspaces/run-triggers.js';
import { runRoutes } from './routes/runs/runs.js';
import { assessmentResultRoutes } from './routes/workspaces/assessment-results.js';
import { organizationRunQueueRoutes } from './routes/runs/organization-run-queue.js';
import { organizationRunRoutes } from './routes/runs/organization-runs.js';
import { taskStageRoutes } from './routes/runs/task-stages.js';
import { runsMayHaveQueued, runsMayHaveStopped } from '../runner/wake.js';
import { runContentRoutes, runExecutionRoutes } from './routes/runs/run-execution.js';
import { configurationVersionActionRoutes } from './routes/runs/configuration-version-actions.js';
import { commentRoutes } from './routes/runs/comments.js';
import { workspaceLockRoutes } from './routes/workspaces/workspace-locks.js';
import { variableRoutes } from './routes/variables/variables.js';
import { stateContentRoutes, stateVersionRoutes } from './routes/state/state-versions.js';
import { stateOutputRoutes } from './routes/state/state-outputs.js';
import { consoleSignInLinkRoutes, consoleSignInRoutes } from './routes/identity/console-sign-in.js';
import { terraformLoginApprovalRoutes, terraformLoginPageRoutes } from './routes/identity/terraform-login.js';
import { terraformLoginTokenRoutes } from './routes/identity/terraform-login-token.js';
import { varsetRoutes } from './routes/variables/varsets.js';
import { registryModuleRoutes } from './routes/registry/modules.js';
import { moduleArchiveRoutes } from './routes/registry/module-archives.js';
import { moduleProtocolRoutes } from './routes/registry/module-protocol.js';
import { providerRoutes } from './routes/registry/provider-routes.js';
import { mirrorPackageRoutes } from './routes/registry/mirror-package-routes.js';
import { providerRegistryRoutes } from './routes/registry/provider-registry-app.js';
import { notificationConfigurationRoutes } from './routes/notifications/notification-configurations.js';
import { systemClock } from '../domain/common/clock.js';
import { DEFAULT_SETTINGS } from '../services/context.js';
import { databaseErrorAnswer } from '../store/database-errors.js';

/** Paths of the writes that may queue a run: runs and their actions, uploads, workspace unlocks. */
const RUN_WRITES = /\/(runs|configuration-versions|actions\/(unlock|force-unlock))(\/|$)/;
/** Paths of the actions that may stop a run executing: its cancels, a workspace's safe delete. */
const RUN_STOPS = /\/actions\/(cancel|force-cancel|safe-delete)$/;

/**
 * The HTTP API: the single contract of berth. `serve` puts it behind a socket; local mode calls
 * its `fetch` in-process. Routes only parse, call one service and serialise.
 */
export function createApp(options: AppOptions): Hono<AppEnv> {
  const app = new Hono<AppEnv>(options.singleRequest ? { router: new LinearRouter() } : {});

  app.onError((err, c) => {
    if (err instanceof BerthError) return sendError(c, err);
    // A client gone mid-request: not a database error, whatever the error's code.
    if (isClientAbort((c.env as { incoming?: IncomingMessage } | undefined)?.incoming))
      return sendError(c, clientClosedRequest());
    const answer = databaseErrorAnswer(err);
    if (answer && answer.status !== 503) return sendError(c, answer);
    // An unavailable database is logged too: the operator should know.
    options.onUnexpectedError?.(err);
    if (answer) return sendError(c, answer);
    return sendError(c, internalError());
  });
  app.notFound((c) => sendError(c, notFound(`no route for ${c.req.method} ${new URL(c.req.url).pathname}`)));

  app.use('*', requestIdMiddleware());
  app.use('*', auditMiddleware(options));
  // With --execute-runs, a write that may have queued a run wakes the executor at once.
  if ((options.settings ?? DEFAULT_SETTINGS).executesRuns) {
    app.use('*', async (c, next) => {
      await next();
      if (c.req.method !== 'GET' && c.res.status < 400 && RUN_WRITES.test(c.req.path)) runsMayHaveQueued();
      // A deletion (of a workspace or organization: their runs go with them) or a cancel: the
      // executors stop the runs concerned now, not at their next look.
      if (c.res.status < 400 && (c.req.method === 'DELETE' || RUN_STOPS.test(c.req.path))) runsMayHaveStopped();
    });
  }
  const meta = metaRoutes(options.db);
  app.route('/', meta.root);
  app.route('/', healthRoutes(options.db));
  // `terraform login`'s authorization page: a redirect to the console's approval page.
  app.route('/', terraformLoginPageRoutes());

  const v2 = new Hono<AppEnv>();
  // Routes without a token come first: ping, and the state content URLs (their own limit).
  v2.route('/', meta.v2);
  v2.route('/', stateContentRoutes({ db: options.db, clock: options.clock ?? systemClock }));
  v2.route(
    '/',
    runContentRoutes({
      db: options.db,
      clock: options.clock ?? systemClock,
      settings: options.settings ?? DEFAULT_SETTINGS,
    }),
  );
  // A registry module version's archive at its signed URLs (upload, download; their own limit).
  v2.route(
    '/',
    moduleArchiveRoutes({
      db: options.db,
      clock: options.clock ?? systemClock,
      settings: options.settings ?? DEFAULT_SETTINGS,
    }),
  );
  v2.use(
    '*',
    requestBodyLimit(BODY_LIMIT, () => {
      throw payloadTooLarge(`request bodies are limited to ${BODY_LIMIT} bytes`);
    }),
  );
  // The console's sign-in: the link's code is the credential, no token.
  v2.route('/', consoleSignInRoutes(options));
  // `terraform login`'s token endpoint: the approved code and its PKCE verifier are the credential.
  v2.route('/', terraformLoginTokenRoutes(options));
  v2.use('*', authMiddleware(options));
  v2.route('/', organizationRoutes());
  v2.route('/', projectRoutes());
  v2.route('/', userRoutes());
  v2.route('/', adminSettingsRoutes());
  v2.route('/', teamRoutes());
  v2.route('/', teamTokenRoutes());
  v2.route('/', teamMemberRoutes());
  v2.route('/', accountRoutes());
  v2.route('/', organizationMembershipRoutes());
  v2.route('/', teamAccessRoutes());
  // Before tokenRoutes: `/authentication-tokens/:id` of an agent token is served there.
  v2.route('/', agentTokenRoutes());
  v2.route('/', agentRoutes());
  v2.route('/', tokenRoutes());
  v2.route('/', workspaceRoutes());
  v2.route('/', projectWorkspaceRoutes());
  v2.route('/', agentPoolRoutes());
  v2.route('/', workspaceLockRoutes());
  v2.route('/', stateVersionRoutes());
  v2.route('/', stateOutputRoutes());
  v2.route('/', runRoutes());
  v2.route('/', runExecutionRoutes());
  v2.route('/', configurationVersionActionRoutes());
  v2.route('/', commentRoutes());
  v2.route('/', organizationRunQueueRoutes());
  v2.route('/', organizationRunRoutes());
  v2.route('/', taskStageRoutes());
  v2.route('/', assessmentResultRoutes());
  v2.route('/', workspaceRelationRoutes());
  v2.route('/', runTriggerRoutes());
  v2.route('/', variableRoutes());
  v2.route('/', auditTrailRoutes());
  v2.route('/', organizationTagRoutes());
  v2.route('/', consoleSignInLinkRoutes());
  v2.route('/', terraformLoginApprovalRoutes());
  v2.route('/', varsetRoutes());
  v2.route('/', registryModuleRoutes());
  v2.route('/', providerRoutes());
  v2.route('/', mirrorPackageRoutes());
  v2.route('/', notificationConfigurationRoutes());

  app.route('/api/v2', v2);
  // The registry protocols (discovery's `modules.v1`; `providers.v1` beside it), token-authenticated.
  const modulesV1 = new Hono<AppEnv>();
  modulesV1.use('/v1/modules/*', authMiddleware(options));
  modulesV1.route('/', moduleProtocolRoutes());
  app.route('/api/registry', modulesV1);
  // Providers: their signed files, GPG keys, providers.v1 and the organizations' mirrors.
  app.route('/api/registry', providerRegistryRoutes(options));
  // The agent protocol (`berth agent`): agent tokens only, none of /api/v2's.
  app.route(
    '/api/agent',
    agentProtocolRoutes({
      db: options.db,
      clock: options.clock ?? systemClock,
      agentTimeoutMs: options.agentTimeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS,
      rateLimit: options.agentRateLimit,
      executesRuns: (options.settings ?? DEFAULT_SETTINGS).executesRuns === true,
    }),
  );
  return app;
}
