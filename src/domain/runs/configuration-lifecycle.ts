/**
 * What becomes of a configuration version after it is created (HCP Terraform's Configuration
 * Versions API): which one is its workspace's current one, when its upload URL takes an archive,
 * and when it may be archived. Pure: the services read the rows and apply these.
 */

export interface ConfigurationFacts {
  status: string;
  speculative: boolean;
  provisional: boolean;
}

/**
 * An upload makes a version its workspace's current one unless it is speculative (plan-only, as
 * `terraform plan` sends) or provisional (`terraform plan -out`: it becomes current only when a
 * run of it applies). Each only when newer than the current one.
 */
export function currentOnUpload(cv: ConfigurationFacts): boolean {
  return !cv.speculative && !cv.provisional;
}

/** A provisional version becomes current when a run of it applied (unless a newer one is). */
export function currentOnApply(cv: ConfigurationFacts): boolean {
  return cv.provisional && !cv.speculative && cv.status === 'uploaded';
}

/**
 * Why an archive PUT to the upload URL is refused (409), or null: HCP takes the archive again,
 * replacing the one stored, while the version is uploaded and no run used it yet.
 */
export function uploadRefusal(cv: { id: string; status: string }, usedByRun: string | null): string | null {
  if (cv.status !== 'pending' && cv.status !== 'uploaded') return `configuration version ${cv.id} is ${cv.status}`;
  if (usedByRun) return `configuration version ${cv.id} is already uploaded and used by run ${usedByRun}`;
  return null;
}

/**
 * Why a version may not be archived (409, HCP's words where go-tfe's tests look for them), or
 * null: it must be uploaded, not its workspace's current one, and have no run that still needs it.
 */
export function archiveRefusal(
  cv: { status: string },
  isCurrent: boolean,
  unfinishedRun: string | null,
): string | null {
  if (cv.status !== 'uploaded')
    return `transition not allowed: configuration could not be archived because it is ${cv.status}`;
  if (isCurrent) return 'transition not allowed: configuration could not be archived because it is current';
  if (unfinishedRun)
    return `transition not allowed: configuration could not be archived because run ${unfinishedRun} has not finished`;
  return null;
}
