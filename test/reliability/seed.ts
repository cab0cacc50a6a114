import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { LOCAL_SITE_ADMIN } from '../../src/domain/permissions/actor.js';
import { createConfigurationVersion, uploadConfiguration } from '../../src/services/runs/configuration-versions.js';
import type { ServiceContext } from '../../src/services/context.js';
import { logUrlPath } from '../../src/services/runs/run-documents.js';
import { appendRunLog, finishPhase } from '../../src/services/runs/run-phases.js';
import { claimRun } from '../../src/services/runs/run-claim.js';
import { createExecutedRun } from '../../src/services/runs/run-queue.js';
import { TestApi, type ApiResponse } from '../helpers/api.js';
import { joinOrganization } from '../helpers/members.js';
import { throwawayKey, zipOf, type ThrowawayKey } from '../helpers/provider-package.js';

/** Everything one seeded organization holds: its ids, names and tokens. */
export interface SeededOrg {
  org: string;
  ownerUsername: string;
  ownerUserId: string;
  ownerToken: string;
  memberUsername: string;
  organizationToken: string;
  teamToken: string;
  teamTokenId: string;
  projectId: string;
  projectName: string;
  defaultProjectId: string;
  workspaceId: string;
  workspaceName: string;
  consumerId: string;
  consumerName: string;
  lockedId: string;
  lockedName: string;
  teamId: string;
  teamName: string;
  teamProjectId: string;
  teamWorkspaceId: string;
  sshKeyId: string;
  /** A notification configuration of the workspace (generic, disabled). */
  notificationConfigurationId: string;
  /** A run trigger: the consumer workspace queues runs in the web workspace. */
  runTriggerId: string;
  sshKeyName: string;
  agentPoolId: string;
  agentPoolName: string;
  oauthTokenId: string;
  reservedTagKeyId: string;
  stateVersionId: string;
  stateVersionOutputId: string;
  runId: string;
  /** A comment on the run, and its `commented` event. */
  commentId: string;
  runEventId: string;
  /** A workspace whose run berth executes: planned, awaiting confirmation, holding its lock. */
  runnerWorkspaceId: string;
  configurationVersionId: string;
  executedRunId: string;
  planId: string;
  applyId: string;
  /** The signed `<expires>/<signature>` of the plan's log URL. */
  planLogPath: string;
  tagId: string;
  tagName: string;
  bindingKey: string;
  bindingValue: string;
  projectBindingKey: string;
  userTokenId: string;
  /** The organization membership of the team member. */
  membershipId: string;
  /** A sensitive Terraform variable of the workspace (its value names the organization). */
  variableId: string;
  /** A variable set applied to the workspace, with a sensitive variable of its own. */
  varsetId: string;
  varsetVariableId: string;
  /** An agent of the agent pool, registered with one of its tokens. */
  agentId: string;
  /** A private registry module, `${p}-net` for the provider `${p}cloud`, with an uploaded version. */
  moduleId: string;
  moduleName: string;
  moduleProvider: string;
  moduleVersionId: string;
  /** The signed queries (`expires=…&signature=…`) of that version's archive: its (used) upload, a download. */
  moduleUploadQuery: string;
  moduleDownloadQuery: string;
  /** A GPG key of the organization's namespace: its id, key ID and armor. */
  gpgKeyId: string;
  gpgKeyKeyId: string;
  gpgAsciiArmor: string;
  /** A private provider `${p}-tool`, with a version (SHA256SUMS and signature uploaded) and a platform (archive uploaded). */
  providerId: string;
  providerName: string;
  providerVersionId: string;
  providerPlatformId: string;
  providerArchiveId: string;
  providerFilename: string;
  providerShasum: string;
  /** The signed queries of the version's files and the platform's archive (the uploads' already used). */
  shasumsUploadQuery: string;
  shasumsSigUploadQuery: string;
  shasumsDownloadQuery: string;
  shasumsSigDownloadQuery: string;
  binaryUploadQuery: string;
  archiveDownloadQuery: string;
  /** A package pushed into the organization's mirror, under a registry hostname of its own. */
  mirrorHostname: string;
  mirrorNamespace: string;
  mirrorType: string;
  mirrorFilename: string;
  mirrorArchiveId: string;
  mirrorDownloadQuery: string;
}

/**
 * The versions and platform of the seeded registry records: the same in every seeded organization
 * (so not among the values of one that another must never see).
 */
export const REGISTRY_SEED = {
  moduleVersion: '1.0.0',
  providerVersion: '1.0.0',
  mirrorVersion: '2.0.0',
  os: 'linux',
  arch: 'amd64',
} as const;

const EMPTY_STATE = JSON.parse(readFileSync(new URL('../fixtures/state-empty.json', import.meta.url), 'utf8'));
/** The seeded state: no resources, one sensitive output named after the organization. */
const stateOf = (p: string) =>
  Buffer.from(
    JSON.stringify({
      ...EMPTY_STATE,
      outputs: { [`${p}_out`]: { value: `${p}-output-value`, type: 'string', sensitive: true } },
    }),
  );

function ok(res: ApiResponse, what: string, status = [200, 201, 204]): ApiResponse {
  if (!status.includes(res.status)) throw new Error(`seed ${what}: ${res.status} ${res.text}`);
  return res;
}

/**
 * Seeds organization `p` through the API with every kind of record berth holds: projects with
 * tag bindings, workspaces with bindings, flat tags, an SSH key, a remote state consumer, a lock,
 * a state version and a run, a team with a member, grants and a token, an organization token, an
 * agent pool and an OAuth token. Names all start with `p`, so a leak is easy to search for.
 */
export async function seedOrganization(api: TestApi, p: string): Promise<SeededOrg> {
  const owner = await api.userToken(`${p}-owner`);
  const t = { token: owner.token };
  ok(await api.createOrg(p, owner.token), 'org');
  const org = p;
  const defaultProjectId = (await api.get(`/api/v2/organizations/${org}`, t)).body.data.relationships['default-project']
    .data.id;
  const projectName = `${p}-Alpha`;
  const project = ok(
    await api.post(
      `/api/v2/organizations/${org}/projects`,
      {
        data: {
          type: 'projects',
          attributes: { name: projectName },
          relationships: {
            'tag-bindings': { data: [{ type: 'tag-bindings', attributes: { key: `${p}-pkey`, value: `${p}-pval` } }] },
          },
        },
      },
      t,
    ),
    'project',
  );
  const projectId = project.body.data.id;
  const ws = async (name: string, extra: Record<string, unknown> = {}) =>
    ok(
      await api.post(
        `/api/v2/organizations/${org}/workspaces`,
        {
          data: {
            type: 'workspaces',
            attributes: { name, ...extra },
            relationships: {
              project: { data: { type: 'projects', id: projectId } },
              'tag-bindings': {
                data: [{ type: 'tag-bindings', attributes: { key: `${p}-key`, value: `${p}-value` } }],
              },
            },
          },
        },
        t,
      ),
      `workspace ${name}`,
    ).body.data.id as string;
  const workspaceName = `${p}-web`;
  // Approved consumers only, so that it can list one (a self-hosted berth's default is global).
  const workspaceId = await ws(workspaceName, { description: `${p} web description`, 'global-remote-state': false });
  const consumerName = `${p}-reader`;
  const consumerId = await ws(consumerName);
  const lockedName = `${p}-locked`;
  const lockedId = await ws(lockedName);
  const runnerWorkspaceId = await ws(`${p}-runner`);

  const tagName = `${p}-flat`;
  ok(
    await api.post(
      `/api/v2/workspaces/${workspaceId}/relationships/tags`,
      { data: [{ type: 'tags', attributes: { name: tagName } }] },
      t,
    ),
    'flat tag',
  );
  const tagId = (await api.get(`/api/v2/organizations/${org}/tags`, t)).body.data[0].id;
  ok(
    await api.post(
      `/api/v2/workspaces/${workspaceId}/relationships/remote-state-consumers`,
      { data: [{ type: 'workspaces', id: consumerId }] },
      t,
    ),
    'consumer',
  );
  const runTriggerId = ok(
    await api.post(
      `/api/v2/workspaces/${workspaceId}/run-triggers`,
      { data: { relationships: { sourceable: { data: { type: 'workspaces', id: consumerId } } } } },
      t,
    ),
    'run trigger',
  ).body.data.id;

  const sshKeyName = `${p}-deploy-key`;
  const sshKeyId = ok(
    await api.post(
      `/api/v2/organizations/${org}/ssh-keys`,
      { data: { type: 'ssh-keys', attributes: { name: sshKeyName, value: `${p}-secret-key` } } },
      t,
    ),
    'ssh key',
  ).body.data.id;
  ok(
    await api.patch(
      `/api/v2/workspaces/${workspaceId}/relationships/ssh-key`,
      { data: { type: 'workspaces', attributes: { id: sshKeyId } } },
      t,
    ),
    'assign ssh key',
  );
  const notificationConfigurationId = ok(
    await api.post(
      `/api/v2/workspaces/${workspaceId}/notification-configurations`,
      {
        data: {
          type: 'notification-configurations',
          attributes: {
            'destination-type': 'generic',
            enabled: false,
            name: `${p}-hook`,
            url: `http://127.0.0.1:9/${p}-hook`,
            token: `${p}-hook-token`,
            triggers: ['run:created'],
          },
        },
      },
      t,
    ),
    'notification configuration',
  ).body.data.id;

  ok(await api.post(`/api/v2/workspaces/${workspaceId}/actions/lock`, { reason: `${p} state push` }, t), 'lock');
  const STATE = stateOf(p);
  const md5 = createHash('md5').update(STATE).digest('hex');
  const stateVersionId = ok(
    await api.post(
      `/api/v2/workspaces/${workspaceId}/state-versions`,
      {
        data: {
          type: 'state-versions',
          attributes: {
            serial: 4,
            lineage: '5d1b8b4e-9a0f-4c1c-8f2e-2f1a3a9e7c11',
            md5,
            state: STATE.toString('base64'),
          },
        },
      },
      t,
    ),
    'state version',
  ).body.data.id;
  ok(await api.post(`/api/v2/workspaces/${workspaceId}/actions/unlock`, undefined, t), 'unlock');
  const stateVersionOutputId = ok(await api.get(`/api/v2/state-versions/${stateVersionId}/outputs`, t), 'outputs').body
    .data[0].id;
  ok(await api.post(`/api/v2/workspaces/${lockedId}/actions/lock`, { reason: `${p} held` }, t), 'lock held');
  const runId = ok(
    await api.post(
      '/api/v2/runs',
      {
        data: {
          type: 'runs',
          attributes: { message: `${p} run` },
          relationships: { workspace: { data: { type: 'workspaces', id: workspaceId } } },
        },
      },
      t,
    ),
    'run',
  ).body.data.id;
  const comment = ok(
    await api.post(
      `/api/v2/runs/${runId}/comments`,
      { data: { type: 'comments', attributes: { body: `${p} comment` } } },
      t,
    ),
    'comment',
  ).body.data;

  const executed = await seedExecutedRun(api, runnerWorkspaceId, p);

  const teamName = `${p}-team`;
  const teamId = ok(
    await api.post(
      `/api/v2/organizations/${org}/teams`,
      {
        data: {
          type: 'teams',
          attributes: { name: teamName, 'organization-access': { 'read-workspaces': true, 'read-projects': true } },
        },
      },
      t,
    ),
    'team',
  ).body.data.id;
  const member = await api.userToken(`${p}-member`);
  const membershipId = await joinOrganization(api, org, `${p}-member`, member.token, owner.token);
  ok(
    await api.post(`/api/v2/teams/${teamId}/relationships/users`, { data: [{ type: 'users', id: `${p}-member` }] }, t),
    'member',
  );
  const teamProjectId = ok(
    await api.post(
      '/api/v2/team-projects',
      {
        data: {
          type: 'team-projects',
          attributes: { access: 'write' },
          relationships: {
            team: { data: { type: 'teams', id: teamId } },
            project: { data: { type: 'projects', id: projectId } },
          },
        },
      },
      t,
    ),
    'team project',
  ).body.data.id;
  const teamWorkspaceId = ok(
    await api.post(
      '/api/v2/team-workspaces',
      {
        data: {
          type: 'team-workspaces',
          attributes: { access: 'admin' },
          relationships: {
            team: { data: { type: 'teams', id: teamId } },
            workspace: { data: { type: 'workspaces', id: workspaceId } },
          },
        },
      },
      t,
    ),
    'team workspace',
  ).body.data.id;
  const teamTokenDoc = ok(await api.post(`/api/v2/teams/${teamId}/authentication-token`, undefined, t), 'team token')
    .body.data;
  const orgTokenDoc = ok(await api.post(`/api/v2/organizations/${org}/authentication-token`, undefined, t), 'org token')
    .body.data;
  const userTokenId = ok(
    await api.post(
      `/api/v2/users/${owner.userId}/authentication-tokens`,
      { data: { type: 'authentication-tokens', attributes: { description: `${p} laptop` } } },
      t,
    ),
    'user token',
  ).body.data.id;

  const agentPoolName = `${p}-pool`;
  const agentPoolId = ok(
    await api.post(
      `/api/v2/organizations/${org}/agent-pools`,
      { data: { type: 'agent-pools', attributes: { name: agentPoolName } } },
      t,
    ),
    'agent pool',
  ).body.data.id;
  const oauthTokenId = ok(
    await api.post(
      `/api/v2/organizations/${org}/oauth-tokens`,
      { data: { type: 'oauth-tokens', attributes: { 'service-provider': 'github' } } },
      t,
    ),
    'oauth token',
  ).body.data.id;

  const reservedTagKeyId = ok(
    await api.post(
      `/api/v2/organizations/${org}/reserved-tag-keys`,
      { data: { type: 'reserved-tag-keys', attributes: { key: `${p}-reserved`, 'disable-overrides': true } } },
      t,
    ),
    'reserved tag key',
  ).body.data.id;

  const variableId = ok(
    await api.post(
      `/api/v2/workspaces/${workspaceId}/vars`,
      {
        data: {
          type: 'vars',
          attributes: { key: `${p}_var`, value: `${p}-secret-var`, category: 'terraform', sensitive: true },
        },
      },
      t,
    ),
    'workspace variable',
  ).body.data.id;
  const varset = ok(
    await api.post(
      `/api/v2/organizations/${org}/varsets`,
      {
        data: {
          type: 'varsets',
          attributes: { name: `${p}-varset` },
          relationships: { workspaces: { data: [{ type: 'workspaces', id: workspaceId }] } },
        },
      },
      t,
    ),
    'variable set',
  ).body.data.id;
  const varsetVariableId = ok(
    await api.post(
      `/api/v2/varsets/${varset}/relationships/vars`,
      {
        data: {
          type: 'vars',
          attributes: { key: `${p}_ENV`, value: `${p}-secret-env`, category: 'env', sensitive: true },
        },
      },
      t,
    ),
    'variable set variable',
  ).body.data.id;
  const agentToken = ok(
    await api.post(
      `/api/v2/agent-pools/${agentPoolId}/authentication-tokens`,
      { data: { type: 'authentication-tokens', attributes: { description: `${p} agent` } } },
      t,
    ),
    'agent token',
  ).body.data.attributes.token;
  const agentId = ok(
    await api.request('POST', '/api/agent/register', {
      raw: JSON.stringify({ name: `${p}-agent` }),
      token: agentToken,
      headers: { 'Content-Type': 'application/json' },
    }),
    'agent',
  ).body.id;
  const registry = await seedRegistry(api, p, owner.token);

  return {
    org,
    ownerUsername: `${p}-owner`,
    ownerUserId: owner.userId,
    ownerToken: owner.token,
    memberUsername: `${p}-member`,
    organizationToken: orgTokenDoc.attributes.token,
    teamToken: teamTokenDoc.attributes.token,
    teamTokenId: teamTokenDoc.id,
    projectId,
    projectName,
    defaultProjectId,
    workspaceId,
    workspaceName,
    consumerId,
    consumerName,
    lockedId,
    lockedName,
    teamId,
    teamName,
    teamProjectId,
    teamWorkspaceId,
    sshKeyId,
    notificationConfigurationId,
    runTriggerId,
    sshKeyName,
    agentPoolId,
    agentPoolName,
    oauthTokenId,
    reservedTagKeyId,
    stateVersionId,
    stateVersionOutputId,
    runId,
    commentId: comment.id,
    runEventId: comment.relationships['run-event'].data.id,
    runnerWorkspaceId,
    ...executed,
    tagId,
    tagName,
    bindingKey: `${p}-key`,
    bindingValue: `${p}-value`,
    projectBindingKey: `${p}-pkey`,
    userTokenId,
    membershipId,
    variableId,
    varsetId: varset,
    varsetVariableId,
    agentId,
    ...registry,
  };
}

/** The query string (without `?`) of a signed URL, absolute or a path. */
const queryOf = (url: string) => new URL(url, 'http://berth.test').search.slice(1);

/** A request with a binary body (a signed upload, a mirror push), as go-tfe and berth send them. */
async function sendBytes(api: TestApi, method: string, url: string, body: Buffer, token?: string) {
  const headers: Record<string, string> = { 'Content-Type': 'application/octet-stream' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await api.app.fetch(new Request(new URL(url, 'http://berth.test'), { method, headers, body }));
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: null, text } satisfies ApiResponse;
}

/** One throwaway GPG key per organization prefix, made once per process (RSA keys are slow to make). */
const gpgKeys = new Map<string, ThrowawayKey>();
const gpgKeyOf = (p: string) => {
  let key = gpgKeys.get(p);
  if (!key) gpgKeys.set(p, (key = throwawayKey(`${p} registry <${p}@berth.test>`)));
  return key;
};

/**
 * The organization's private registry, through the API as go-tfe and berth publish: a module with
 * an uploaded version, a GPG key, a private provider with a version and a platform whose files are
 * all uploaded, and a package pushed into its mirror. Names start with `p`; the signed queries
 * kept are what the tenant-isolation cases try on other ids and purposes.
 */
async function seedRegistry(api: TestApi, p: string, token: string) {
  const t = { token };
  const { moduleVersion, providerVersion, mirrorVersion, os, arch } = REGISTRY_SEED;

  const moduleName = `${p}-net`;
  const moduleProvider = `${p}cloud`;
  const moduleId = ok(
    await api.post(
      `/api/v2/organizations/${p}/registry-modules`,
      { data: { type: 'registry-modules', attributes: { name: moduleName, provider: moduleProvider } } },
      t,
    ),
    'registry module',
  ).body.data.id;
  const moduleVersionDoc = ok(
    await api.post(
      `/api/v2/organizations/${p}/registry-modules/private/${p}/${moduleName}/${moduleProvider}/versions`,
      { data: { type: 'registry-module-versions', attributes: { version: moduleVersion } } },
      t,
    ),
    'registry module version',
  ).body.data;
  ok(
    await sendBytes(
      api,
      'PUT',
      moduleVersionDoc.links.upload,
      gzipSync(Buffer.from(`output "${p}" { value = "${p}-module-output" }`)),
    ),
    'registry module upload',
  );
  const download = ok(
    await api.get(`/api/registry/v1/modules/${p}/${moduleName}/${moduleProvider}/${moduleVersion}/download`, t),
    'registry module download',
  ).headers.get('x-terraform-get');
  if (!download) throw new Error('seed registry module download: no X-Terraform-Get');

  const key = gpgKeyOf(p);
  const gpgKeyId = ok(
    await api.post(
      '/api/registry/private/v2/gpg-keys',
      { data: { type: 'gpg-keys', attributes: { namespace: p, 'ascii-armor': key.asciiArmor } } },
      t,
    ),
    'gpg key',
  ).body.data.id;

  const providerName = `${p}-tool`;
  const providerPath = `/api/v2/organizations/${p}/registry-providers/private/${p}/${providerName}`;
  const providerId = ok(
    await api.post(
      `/api/v2/organizations/${p}/registry-providers`,
      {
        data: {
          type: 'registry-providers',
          attributes: { name: providerName, namespace: p, 'registry-name': 'private' },
        },
      },
      t,
    ),
    'registry provider',
  ).body.data.id;
  const version = ok(
    await api.post(
      `${providerPath}/versions`,
      {
        data: {
          type: 'registry-provider-versions',
          attributes: { version: providerVersion, 'key-id': key.keyId, protocols: ['5.0'] },
        },
      },
      t,
    ),
    'registry provider version',
  ).body.data;
  const providerFilename = `terraform-provider-${providerName}_${providerVersion}_${os}_${arch}.zip`;
  const zip = zipOf({ [`terraform-provider-${providerName}_v${providerVersion}`]: Buffer.from(`#!/bin/sh\n# ${p}\n`) });
  const providerShasum = createHash('sha256').update(zip).digest('hex');
  const shasums = Buffer.from(`${providerShasum}  ${providerFilename}\n`);
  ok(await sendBytes(api, 'PUT', version.links['shasums-upload'], shasums), 'shasums upload');
  ok(await sendBytes(api, 'PUT', version.links['shasums-sig-upload'], key.sign(shasums)), 'shasums-sig upload');
  const platform = ok(
    await api.post(
      `${providerPath}/versions/${providerVersion}/platforms`,
      {
        data: {
          type: 'registry-provider-platforms',
          attributes: { os, arch, shasum: providerShasum, filename: providerFilename },
        },
      },
      t,
    ),
    'registry provider platform',
  ).body.data;
  ok(await sendBytes(api, 'PUT', platform.links['provider-binary-upload'], zip), 'provider binary upload');
  const versionLinks = ok(await api.get(`${providerPath}/versions/${providerVersion}`, t), 'provider version').body.data
    .links;
  const archiveLink = ok(
    await api.get(`${providerPath}/versions/${providerVersion}/platforms/${os}/${arch}`, t),
    'platform',
  ).body.data.links['provider-binary-download'] as string;

  const mirrorHostname = `mirror.${p}.test`;
  const mirrorNamespace = `${p}-vendor`;
  const mirrorType = `${p}relay`;
  const mirrorFilename = `terraform-provider-${mirrorType}_${mirrorVersion}_${os}_${arch}.zip`;
  const mirrorPath = `/api/registry/mirror/${p}/${mirrorHostname}/${mirrorNamespace}/${mirrorType}`;
  const mirrorZip = zipOf({
    [`terraform-provider-${mirrorType}_v${mirrorVersion}`]: Buffer.from(`#!/bin/sh\n# ${p} mirrored\n`),
  });
  ok(await sendBytes(api, 'PUT', `${mirrorPath}/${mirrorFilename}`, mirrorZip, token), 'mirror push');
  const mirrored = ok(await api.get(`${mirrorPath}/${mirrorVersion}.json`, t), 'mirror version').body.archives[
    `${os}_${arch}`
  ].url as string;

  const archiveIdOf = (url: string) => new URL(url, 'http://berth.test').pathname.split('/')[5];
  return {
    moduleId,
    moduleName,
    moduleProvider,
    moduleVersionId: moduleVersionDoc.id as string,
    moduleUploadQuery: queryOf(moduleVersionDoc.links.upload),
    moduleDownloadQuery: queryOf(download),
    gpgKeyId,
    gpgKeyKeyId: key.keyId,
    gpgAsciiArmor: key.asciiArmor,
    providerId,
    providerName,
    providerVersionId: version.id as string,
    providerPlatformId: platform.id as string,
    providerArchiveId: archiveIdOf(archiveLink),
    providerFilename,
    providerShasum,
    shasumsUploadQuery: queryOf(version.links['shasums-upload']),
    shasumsSigUploadQuery: queryOf(version.links['shasums-sig-upload']),
    shasumsDownloadQuery: queryOf(versionLinks['shasums-download']),
    shasumsSigDownloadQuery: queryOf(versionLinks['shasums-sig-download']),
    binaryUploadQuery: queryOf(platform.links['provider-binary-upload']),
    archiveDownloadQuery: queryOf(archiveLink),
    mirrorHostname,
    mirrorNamespace,
    mirrorType,
    mirrorFilename,
    mirrorArchiveId: archiveIdOf(mirrored),
    mirrorDownloadQuery: queryOf(mirrored),
  };
}

/**
 * A run berth executes, made through the services (the app under test need not execute runs):
 * an uploaded configuration version, and a run whose plan the executor's side finished with
 * changes, so it waits for confirmation holding the workspace's lock and has a plan log.
 */
async function seedExecutedRun(api: TestApi, workspaceId: string, p: string) {
  const ctx: ServiceContext = {
    ...TestApi.ctx(api.store, LOCAL_SITE_ADMIN),
    settings: { ...TestApi.ctx(api.store, LOCAL_SITE_ADMIN).settings, executesRuns: true },
  };
  const cv = await createConfigurationVersion(
    ctx,
    { id: workspaceId },
    { autoQueueRuns: false, speculative: false, provisional: false },
  );
  const q = new URLSearchParams(cv.uploadQuery!);
  await uploadConfiguration(
    ctx,
    cv.id,
    { expires: q.get('expires')!, signature: q.get('signature')! },
    gzipSync(Buffer.from(`${p} configuration`)),
  );
  const run = await createExecutedRun(ctx, {
    workspaceId,
    configurationVersionId: cv.id,
    message: `${p} executed run`,
    isDestroy: false,
    refresh: true,
    refreshOnly: false,
    planOnly: false,
    autoApply: false,
    allowEmptyApply: false,
    targetAddrs: [],
    replaceAddrs: [],
    variables: [],
  });
  const now = () => new Date().toISOString();
  const claimed = await claimRun(api.store.db, `${p}-executor`, now());
  if (claimed?.runId !== run.id) throw new Error(`seed: claimed ${claimed?.runId}, not ${run.id}`);
  await appendRunLog(api.store.db, run.id, 'plan', Buffer.from(`${p} plan output\n`));
  await finishPhase(
    api.store.db,
    run.id,
    'plan',
    { outcome: 'finished', hasChanges: true, counts: { additions: 1, changes: 0, destructions: 0 } },
    now(),
  );
  const tail = run.id.slice('run-'.length);
  return {
    configurationVersionId: cv.id,
    executedRunId: run.id,
    planId: `plan-${tail}`,
    applyId: `apply-${tail}`,
    planLogPath: await logUrlPath(ctx, `plan-${tail}`),
  };
}

/**
 * A checksum of the whole database content: every table, every row in rowid order. Token
 * `last_used_at` is left out: authenticating a request may touch it, which is not a change.
 */
export async function databaseChecksum(api: TestApi): Promise<string> {
  const db = api.store.db;
  // The data tables: not the name index's FTS5 tables (migration 019), derived from workspaces.
  const tables = await sql<{
    name: string;
  }>`select name from pragma_table_list where schema = 'main' and type = 'table' and name not like 'sqlite_%'
    order by name`.execute(db);
  const hash = createHash('sha256');
  for (const { name } of tables.rows) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)} order by rowid`.execute(db);
    hash.update(name);
    for (const row of rows.rows) {
      if (name === 'tokens') delete row.last_used_at;
      hash.update(JSON.stringify(row, (_k, v) => (Buffer.isBuffer(v) ? v.toString('base64') : v)));
    }
  }
  return hash.digest('hex');
}
