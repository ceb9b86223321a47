// `turnback url`: the running service's console URL with its token.
import { consoleUrl, liveConsole, NO_SERVICE } from './service-client.js';

export async function run(args: string[]): Promise<number> {
  if (args.length > 0) {
    process.stderr.write('usage: turnback url\n');
    return 2;
  }
  const target = liveConsole();
  if (!target) {
    process.stderr.write(`turnback: ${NO_SERVICE}\n`);
    return 2;
  }
  process.stdout.write(`${consoleUrl(target)}\n`);
  return 0;
}
