export function WorkspacesPage(_props: { org: string; query: URLSearchParams }) {
  return <h1>workspaces</h1>;
}
