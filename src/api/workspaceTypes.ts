// The service's workspaces as `GET /api/workspaces` answers them (docs/api.md "Workspaces").

export interface Workspace {
  /** `<folder name>-<first 12 hex of sha256(real path)>`; unique per service. */
  id: string;
  /** Absolute path of the project's root. */
  root: string;
  name: string;
  recording: boolean;
  /** Why it is not recording (store damaged, disk full, refused…). */
  reason?: string;
  /** Its engine is open now (opened on first use, closed when idle). */
  open: boolean;
  sessions: number;
  storeBytes: number;
  /** The workspace the unprefixed routes address (`serve --workspace`, or the only one). */
  isDefault: boolean;
}

export interface WorkspacesResponse {
  workspaces: Workspace[];
}
