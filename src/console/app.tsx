import { useEffect, useState } from 'preact/hooks';
import { api, whenUnauthorized } from './api.js';
import { Layout } from './components/layout.js';
import type { AccountAttributes, Document } from './jsonapi.js';
import { AgentsPage } from './pages/agents.js';
import { AuditPage } from './pages/audit.js';
import { LocksPage } from './pages/locks.js';
import { OrganizationsPage } from './pages/organizations.js';
import { ProjectPage } from './pages/project.js';
import { ProjectsPage } from './pages/projects.js';
import { RegistryPage } from './pages/registry/registry-page.js';
import { SignInPage } from './pages/sign-in.js';
import { TerraformLoginPage } from './pages/terraform-login.js';
import { WorkspacePage } from './pages/workspace/workspace-page.js';
import { WorkspacesPage } from './pages/workspaces.js';
import { useRoute, type Route } from './router.js';
import { exchangeSignInCode, takeSignInCode } from './sign-in-link.js';
import { forgetToken, storedToken, storedTokenId } from './token.js';

/** The console: the sign-in page until a token is stored, then the page of the route. */
export function App() {
  // A one-time sign-in link (#sign-in=CODE) is taken out of the address bar before anything else.
  const [code] = useState(() => {
    const found = takeSignInCode();
    if (found) forgetToken();
    return found;
  });
  const route = useRoute();
  const [signedIn, setSignedIn] = useState(() => storedToken() !== null);
  const [notice, setNotice] = useState<string | null>(null);
  const [user, setUser] = useState<string | null>(null);
  const [exchanging, setExchanging] = useState(code !== null);

  // Set during render, before any page's first request can be refused.
  whenUnauthorized((message) => {
    setNotice(message);
    setSignedIn(false);
  });

  useEffect(() => {
    if (!code) return;
    exchangeSignInCode(code).then(
      () => {
        setNotice(null);
        setSignedIn(true);
        setExchanging(false);
      },
      (err: unknown) => {
        setNotice((err as Error).message);
        setExchanging(false);
      },
    );
  }, [code]);

  useEffect(() => {
    if (!signedIn) return setUser(null);
    api<Document<AccountAttributes>>('/account/details').then(
      (doc) => setUser(doc.data.attributes.username),
      () => setUser(null),
    );
  }, [signedIn]);

  // Each page has its own title (history, tabs and screen readers tell them apart).
  useEffect(() => {
    document.title = `${titleOf(route, signedIn)} · berth`;
  }, [route, signedIn]);

  const signOut = async () => {
    const id = storedTokenId();
    // A token minted by a sign-in link is this tab's alone: deleted, not only forgotten.
    if (id) await api(`/authentication-tokens/${encodeURIComponent(id)}`, { method: 'DELETE' }).catch(() => undefined);
    forgetToken();
    setNotice(null);
    setSignedIn(false);
  };

  if (exchanging)
    return (
      <p class="centered" data-testid="signing-in">
        Signing in…
      </p>
    );
  if (!signedIn)
    return (
      <SignInPage
        notice={notice}
        onSignedIn={() => {
          setNotice(null);
          setSignedIn(true);
        }}
      />
    );
  return (
    <Layout route={route} user={user} onSignOut={() => void signOut()}>
      <Page route={route} />
    </Layout>
  );
}

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'organizations':
      return <OrganizationsPage query={route.query} />;
    case 'projects':
      return <ProjectsPage org={route.org} query={route.query} />;
    case 'project':
      return <ProjectPage key={`${route.org}/${route.id}`} org={route.org} id={route.id} />;
    case 'workspaces':
      return <WorkspacesPage org={route.org} query={route.query} />;
    case 'workspace':
      return <WorkspacePage key={`${route.org}/${route.name}`} org={route.org} name={route.name} query={route.query} />;
    case 'locks':
      return <LocksPage org={route.org} query={route.query} />;
    case 'agents':
      return <AgentsPage org={route.org} query={route.query} />;
    case 'audit':
      return <AuditPage org={route.org} query={route.query} />;
    case 'registry':
      return <RegistryPage key={route.org} org={route.org} />;
    case 'terraform-login':
      return <TerraformLoginPage query={route.query} />;
    default:
      return (
        <p class="error" data-testid="error-message">
          No such page. <a href="#/">Organizations</a>
        </p>
      );
  }
}

function titleOf(route: Route, signedIn: boolean): string {
  if (!signedIn) return 'Sign in';
  switch (route.page) {
    case 'organizations':
      return 'Organizations';
    case 'projects':
      return `Projects of ${route.org}`;
    case 'project':
      return `Project ${route.id} (${route.org})`;
    case 'workspaces':
      return `Workspaces of ${route.org}`;
    case 'workspace':
      return `${route.name} (${route.org})`;
    case 'locks':
      return `Locks of ${route.org}`;
    case 'agents':
      return `Agents of ${route.org}`;
    case 'audit':
      return `Audit trail of ${route.org}`;
    case 'registry':
      return `Registry of ${route.org}`;
    case 'terraform-login':
      return 'Terraform login';
    default:
      return 'Not found';
  }
}
