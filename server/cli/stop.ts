// `turnback stop`: ends the person's service (SIGTERM: active turns are committed first) and
// waits until it is gone. Nothing running is not an error.
import { isProcessAlive, readLiveService, SHUTDOWN_BOUND_MS } from '../service/service-file.js';

export async function run(args: string[]): Promise<number> {
  if (args.length > 0) {
    process.stderr.write('usage: turnback stop\n');
    return 2;
  }
  const entry = readLiveService();
  if (!entry) {
    process.stdout.write('no turnback service is running\n');
    return 0;
  }
  process.kill(entry.pid, 'SIGTERM');
  const deadline = Date.now() + SHUTDOWN_BOUND_MS + 5_000;
  while (isProcessAlive(entry.pid)) {
    if (Date.now() > deadline) {
      process.stderr.write(`turnback: the service (pid ${entry.pid}) did not stop in time\n`);
      return 1;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  process.stdout.write(`turnback stopped (pid ${entry.pid})\n`);
  return 0;
}
