export function AuditPage(_props: { org: string; query: URLSearchParams }) {
  return <h1>audit</h1>;
}
