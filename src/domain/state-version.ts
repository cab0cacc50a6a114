export interface StateVersion {
  id: string;
  workspaceId: string;
  serial: number;
  lineage: string | null;
  md5: string;
  status: 'pending' | 'finalized';
  intermediate: boolean;
  current: boolean;
  resourceCount: number;
  size: number;
  terraformVersion: string | null;
  createdAt: string;
  finalizedAt: string | null;
  /** Capability secret of the upload/download URLs; the serializer builds the URLs from it. */
  urlSecret: string;
}

export interface StateVersionInput {
  serial: number;
  md5: string;
  lineage: string | null;
  /** Base64 of the state file, when given inline. */
  state: string | null;
}
