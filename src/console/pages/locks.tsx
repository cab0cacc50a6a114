export function LocksPage(_props: { org: string; query: URLSearchParams }) {
  return <h1>locks</h1>;
}
