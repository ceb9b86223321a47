// `turnback <command>`: each command lives in its own module under cli/, loaded only when
// used (the hook command must start fast). A new command is a new file plus one line here.
import { USAGE } from './cli/usage.js';

type Command = () => Promise<{ run(args: string[]): Promise<number> }>;

const COMMANDS: Record<string, Command> = {
  serve: () => import('./cli/serve.js'),
  start: () => import('./cli/start.js'),
  stop: () => import('./cli/stop.js'),
  status: () => import('./cli/status.js'),
  url: () => import('./cli/url.js'),
  forget: () => import('./cli/forget.js'),
  demo: () => import('./cli/demo.js'),
  hook: () => import('./cli/hook.js'),
  init: () => import('./cli/init.js'),
  log: () => import('./cli/log.js'),
  show: () => import('./cli/show.js'),
  diff: () => import('./cli/diff.js'),
  undo: () => import('./cli/undo.js'),
  redo: () => import('./cli/redo.js'),
  rewind: () => import('./cli/rewind.js'),
  restore: () => import('./cli/restore.js'),
  pin: () => import('./cli/pin.js'),
  pins: () => import('./cli/pins.js'),
  unpin: () => import('./cli/unpin.js'),
  budget: () => import('./cli/budget.js'),
  mcp: () => import('./cli/mcp.js'),
  explain: () => import('./cli/explain.js'),
  blame: () => import('./cli/blame.js'),
  share: () => import('./cli/share.js'),
  push: () => import('./cli/push.js'),
  pull: () => import('./cli/pull.js'),
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === '--version' || name === '-v') {
    const { packageVersion } = await import('./http/version.js');
    process.stdout.write(`turnback ${packageVersion()}\n`);
    return 0;
  }
  // `turnback` alone: what it can do.
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    process.stderr.write(`turnback: unknown command ${JSON.stringify(name)}\n${USAGE}`);
    return 2;
  }
  return (await load()).run(args);
}

// Exits once stdout and stderr have handed all their output on: process.exit with a pipe whose
// reader is slower than us would drop what is still queued (a cut-off `--json` answer, exit 0).
function exitFlushed(code: number): void {
  let waiting = 2;
  for (const stream of [process.stdout, process.stderr]) {
    let flushed = false;
    const done = () => {
      if (flushed) return;
      flushed = true;
      if (--waiting === 0) process.exit(code);
    };
    // A reader that went away (`| head`) takes no more: nothing is left to wait for.
    stream.once('error', done);
    stream.write('', done);
  }
}

main(process.argv.slice(2)).then(
  (code) => exitFlushed(code),
  (err: unknown) => {
    process.stderr.write(`turnback: ${(err as Error).stack ?? String(err)}\n`);
    exitFlushed(1);
  },
);
