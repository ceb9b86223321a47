// Reads all of stdin as UTF-8, or whatever arrived when the signal fires (so a hook run
// from a terminal, or by a host that never closes stdin, still ends in time).
export function readStdin(stream: NodeJS.ReadableStream, signal: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const finish = () => {
      signal.removeEventListener('abort', finish);
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    if (signal.aborted) return finish();
    signal.addEventListener('abort', finish, { once: true });
    stream.on('data', (chunk: Buffer | string) => chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
    stream.on('end', finish);
    stream.on('error', finish);
  });
}
