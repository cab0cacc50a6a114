/**
 * `terraform.workspace` inside a remote run, as HCP Terraform gives it: the Terraform CLI's own
 * name for the workspace, which depends on how the configuration names it. With a `cloud` block
 * (or no backend), the workspace's name; with the `remote` backend, its CLI name: `default` for
 * `workspaces { name = ... }`, the name less the prefix for `workspaces { prefix = ... }`.
 * `sources` are the texts of the root module's `.tf` files (the executor reads them); a
 * configuration whose backend cannot be told gets the workspace's name.
 */
export function cliWorkspaceName(workspaceName: string, sources: string[]): string {
  for (const text of sources) {
    const at = text.search(/\bbackend\s+"remote"\s*\{/);
    if (at < 0) continue;
    const block = balancedBlock(text, text.indexOf('{', at));
    const prefix = /\bprefix\s*=\s*"([^"]*)"/.exec(block)?.[1];
    if (prefix !== undefined && workspaceName.startsWith(prefix) && workspaceName.length > prefix.length)
      return workspaceName.slice(prefix.length);
    return 'default';
  }
  return workspaceName;
}

/** The text of the `{ ... }` block opening at `open` (to the end of the text when unbalanced). */
function balancedBlock(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return text.slice(open, i + 1);
  }
  return text.slice(open);
}
