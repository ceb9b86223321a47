// The one line a failed start prints on stderr (the process then exits 2).
export class StartupError extends Error {}

export function listenFailure(err: unknown, port: number): StartupError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    return new StartupError(`port ${port} is already in use on 127.0.0.1 (choose another with --port, or --port 0)`);
  if (code === 'EACCES') return new StartupError(`not allowed to listen on port ${port}`);
  return new StartupError(`cannot listen on 127.0.0.1:${port}: ${(err as Error).message}`);
}

export function engineFailure(err: unknown, dataDir: string | undefined): StartupError {
  const { code, details, message } = err as { code?: unknown; details?: Record<string, unknown>; message?: string };
  if (code === 'DATA_DIR_LOCKED' && details) {
    const owner = typeof details.pid === 'number' && details.pid > 0 ? ` (pid ${details.pid})` : '';
    return new StartupError(
      `the data dir ${String(details.dataDir ?? dataDir)} is held by another live turnback server${owner}`,
    );
  }
  // Its message names the file (or dir) and what to do.
  if ((code === 'STORE_DAMAGED' || code === 'DATA_DIR_NOT_PRIVATE') && message) return new StartupError(message);
  return new StartupError(`cannot open the data dir${dataDir ? ` ${dataDir}` : ''}: ${message ?? String(err)}`);
}

export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
