// How a terminal command ends (docs/api.md "CLI: undo from the terminal"): 0 done, 1 refused
// (a conflict, drift, an active turn, a rollback that could not restore everything, a "no" at
// the prompt), 2 a usage error or no service.
export const EXIT_DONE = 0;
export const EXIT_REFUSED = 1;
export const EXIT_USAGE = 2;

/** A failure the command reports in one line (or as `{error}` with --json) and exits with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    readonly code: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const usageError = (message: string) => new CliError(message, EXIT_USAGE, 'USAGE');
export const noService = (message: string) => new CliError(message, EXIT_USAGE, 'NO_SERVICE');
export const refused = (message: string, code: string, details: Record<string, unknown> = {}) =>
  new CliError(message, EXIT_REFUSED, code, details);

/** The service's codes that mean "refused": nothing was changed because the tree or the turn forbade it. */
const REFUSAL_CODES = new Set(['CONFLICT', 'TURN_ACTIVE']);

/** An error answer of the service: `{error: {code, message, ...details}}` with its status. */
export function apiFailure(status: number, body: unknown): CliError {
  const error = (body as { error?: Record<string, unknown> } | undefined)?.error;
  const code = typeof error?.code === 'string' ? error.code : `HTTP_${status}`;
  const message = typeof error?.message === 'string' ? error.message : `the service answered ${status}`;
  const { code: _code, message: _message, ...details } = error ?? {};
  return new CliError(message, REFUSAL_CODES.has(code) ? EXIT_REFUSED : EXIT_USAGE, code, details);
}
