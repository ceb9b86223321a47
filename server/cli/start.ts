// `turnback start [--port N] [--store-budget <size>] [--person-budget <size>]`: the person's service in the background;
// prints its console URL (with the token) once it answers. Idempotent: a running service is only
// printed (a budget given then is said not to apply: it reaches a service only as it starts).
import { parseArgs } from 'node:util';
import { ensureService, readStateToken } from '../service/spawn-service.js';
import { byteSize } from './args.js';
import { consoleUrl } from './service-client.js';

const USAGE = 'turnback start [--port N] [--store-budget <bytes|NNMiB|NNGiB>] [--person-budget <bytes|NNMiB|NNGiB>]';

export async function run(args: string[]): Promise<number> {
  let port: number | undefined;
  const serveArgs: string[] = [];
  try {
    const { values } = parseArgs({
      args,
      options: { port: { type: 'string' }, 'store-budget': { type: 'string' }, 'person-budget': { type: 'string' } },
      strict: true,
      allowPositionals: false,
    });
    if (values.port !== undefined) {
      if (!/^[0-9]{1,5}$/.test(values.port) || Number(values.port) > 65535)
        throw new Error('--port must be an integer from 0 to 65535');
      port = Number(values.port);
    }
    const budget = byteSize('store-budget', values['store-budget']);
    if (budget !== undefined) serveArgs.push('--store-budget', String(budget));
    const personBudget = byteSize('person-budget', values['person-budget']);
    if (personBudget !== undefined) serveArgs.push('--person-budget', String(personBudget));
  } catch (err) {
    process.stderr.write(`turnback start: ${(err as Error).message}\nusage: ${USAGE}\n`);
    return 2;
  }
  const result = await ensureService(process.env, { port, serveArgs });
  if ('error' in result) {
    process.stderr.write(`turnback: ${result.error}\n`);
    return 2;
  }
  if (!result.started && serveArgs.length > 0)
    process.stderr.write(
      'turnback start: the service was already running: --store-budget and --person-budget reach a service only as it starts (turnback stop first, or turnback budget [--person] to set one that lasts)\n',
    );
  const token = readStateToken('consoleToken', process.env) ?? '';
  process.stdout.write(`turnback running at ${consoleUrl({ entry: result.entry, token })}\n`);
  return 0;
}
