import type { ComponentChildren } from 'preact';
import type { Document, OrganizationAttributes } from '../jsonapi.js';
import { orgPath, type Route } from '../router.js';
import { useApi } from '../use-api.js';

/** Whether the organization's document says the caller may read its audit trail. */
export function mayReadAuditTrail(org: Document<OrganizationAttributes> | null): boolean {
  return org?.data.attributes.permissions?.['can-manage-auditing'] === true;
}

/** The page frame: the header with the navigation of the current organization, and sign-out. */
export function Layout({
  route,
  user,
  onSignOut,
  children,
}: {
  route: Route;
  user: string | null;
  onSignOut: () => void;
  children: ComponentChildren;
}) {
  const org = 'org' in route ? route.org : null;
  const section = route.page === 'workspace' ? 'workspaces' : route.page === 'project' ? 'projects' : route.page;
  // The audit trail link only for those who may read it (owners): others would get a 404 page.
  const orgDoc = useApi<Document<OrganizationAttributes>>(org ? `/organizations/${encodeURIComponent(org)}` : null);
  const link = (page: string, label: string) => (
    <li>
      <a
        href={`#${orgPath(org!, page)}`}
        aria-current={section === page ? 'page' : undefined}
        data-testid={`nav-${page}`}
      >
        {label}
      </a>
    </li>
  );
  return (
    <>
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="#/" data-testid="nav-organizations">
          berth
        </a>
        {org && (
          <nav aria-label="organization">
            <span class="org-name" data-testid="current-org">
              {org}
            </span>
            <ul>
              {link('workspaces', 'Workspaces')}
              {link('projects', 'Projects')}
              {link('locks', 'Locks')}
              {link('agents', 'Agents')}
              {link('registry', 'Registry')}
              {mayReadAuditTrail(orgDoc.data) && link('audit', 'Audit trail')}
            </ul>
          </nav>
        )}
        <div class="account">
          <span class="muted" data-testid="current-user">
            {user ?? ''}
          </span>
          <button type="button" onClick={onSignOut} data-testid="sign-out">
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
