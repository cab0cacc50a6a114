import { useState } from 'preact/hooks';
import { LocalPager, ErrorMessage, Section } from '../../components/common.js';
import type { AuditEventAttributes, Collection, Resource, WorkspaceAttributes } from '../../jsonapi.js';
import { href, orgPath } from '../../router.js';
import { useApi } from '../../use-api.js';
import { AuditTable, auditPath } from '../audit.js';

/**
 * The workspace's last audit events. Only for those who may read the organization's audit trail
 * (the workspace page renders it only then: `permissions.can-manage-auditing` of the organization).
 */
export function WorkspaceAuditCard({ org, ws }: { org: string; ws: Resource<WorkspaceAttributes> }) {
  const [page, setPage] = useState(1);
  const list = useApi<Collection<AuditEventAttributes>>(
    auditPath(org, { workspace: ws.id, page: page === 1 ? undefined : String(page) }, 10),
  );
  return (
    <Section title="Audit trail" id="workspace-audit">
      <p>
        <a href={href(orgPath(org, 'audit'), { workspace: ws.id })}>Open in the organization's audit trail</a>
      </p>
      <ErrorMessage message={list.error} />
      <AuditTable list={list.data} loading={list.loading} rows={3} />
      <LocalPager pagination={list.data?.meta?.pagination} setPage={setPage} />
    </Section>
  );
}
