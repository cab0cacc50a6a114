export function WorkspacePage(_props: { org: string; name: string }) {
  return <h1>workspace</h1>;
}
