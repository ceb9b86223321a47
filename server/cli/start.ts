// `turnback start [--port N]`: the person's service in the background; prints its console URL
// (with the token) once it answers. Idempotent: a running service is only printed.
import { parseArgs } from 'node:util';
import { ensureService, readStateToken } from '../service/spawn-service.js';
import { consoleUrl } from './service-client.js';

export async function run(args: string[]): Promise<number> {
  let port: number | undefined;
  try {
    const { values } = parseArgs({
      args,
      options: { port: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    });
    if (values.port !== undefined) {
      if (!/^[0-9]{1,5}$/.test(values.port) || Number(values.port) > 65535)
        throw new Error('--port must be an integer from 0 to 65535');
      port = Number(values.port);
    }
  } catch (err) {
    process.stderr.write(`turnback start: ${(err as Error).message}\nusage: turnback start [--port N]\n`);
    return 2;
  }
  const result = await ensureService(process.env, { port });
  if ('error' in result) {
    process.stderr.write(`turnback: ${result.error}\n`);
    return 2;
  }
  const token = readStateToken('consoleToken', process.env) ?? '';
  process.stdout.write(`turnback running at ${consoleUrl({ entry: result.entry, token })}\n`);
  return 0;
}
