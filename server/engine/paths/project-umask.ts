// The service runs with umask 077 so that its own state stays private; a folder it makes inside
// a person's project (an agent's write into a new folder) takes the person's umask instead, as
// the agent's own tools would have made it.
let projectUmask: number | null = null;

/** Called once by the service as it narrows its own umask, with the umask it started with. */
export function setProjectUmask(mask: number): void {
  projectUmask = mask & 0o777;
}

/** The mode for a folder made in a project, or null to leave the process umask's result. */
export function projectDirMode(): number | null {
  return projectUmask === null ? null : 0o777 & ~projectUmask;
}
