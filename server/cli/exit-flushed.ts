// Exits once stdout and stderr have handed all their output on: process.exit with a pipe whose
// reader is slower than us would drop what is still queued (a cut-off `--json` answer, exit 0).
export function exitFlushed(code: number): void {
  let waiting = 2;
  const done = () => {
    if (--waiting === 0) process.exit(code);
  };
  for (const stream of [process.stdout, process.stderr]) {
    // A reader that went away (`| head`) takes no more: nothing is left to wait for.
    stream.once('error', done);
    stream.write('', done);
  }
}
