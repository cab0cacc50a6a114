export function ProjectsPage(_props: { org: string; query: URLSearchParams }) {
  return <h1>projects</h1>;
}
