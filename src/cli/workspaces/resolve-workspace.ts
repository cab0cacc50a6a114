import type { WorkspaceRef } from '../../client/workspaces.js';
import { usageError } from '../common/prompts.js';

/**
 * WORKSPACE on the command line: a `ws-` id, `ORG/NAME`, or a NAME in `--org`.
 */
export function parseWorkspaceArg(arg: string, org: string | undefined): WorkspaceRef {
  if (/^ws-[A-Za-z0-9]{16}$/.test(arg)) return { id: arg };
  const slash = arg.indexOf('/');
  if (slash > 0 && slash < arg.length - 1 && arg.indexOf('/', slash + 1) === -1) {
    return { organization: arg.slice(0, slash), name: arg.slice(slash + 1) };
  }
  if (!org)
    throw usageError(
      `cannot tell the organization of workspace ${arg}: pass --org NAME, set BERTH_ORG, or write ORG/NAME`,
    );
  return { organization: org, name: arg };
}
