// A second process that swaps a workspace folder with a symlink to an outside folder, as fast
// as the kernel allows (renameat2 RENAME_EXCHANGE through racer.py): what an agent's shell
// could do while turnback works. Started once per suite; `run` and `stop` between attempts,
// and `stop` puts both names back where they began before it answers.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./racer.py', import.meta.url));

export class Racer {
  private lines: string[] = [];
  private waiters: ((line: string) => void)[] = [];
  /** Swaps made so far. */
  swaps = 0;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    let buffered = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        const waiter = this.waiters.shift();
        if (waiter) waiter(line);
        else this.lines.push(line);
      }
    });
  }

  /** Swaps `a` (a real folder) and `b` (a symlink) whenever running. */
  static async start(a: string, b: string): Promise<Racer> {
    const racer = new Racer(spawn('python3', [SCRIPT, a, b], { stdio: ['pipe', 'pipe', 'pipe'] }));
    const ready = await racer.next();
    if (ready !== 'ready') throw new Error(`the racer did not start: ${ready}`);
    return racer;
  }

  private next(): Promise<string> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the racer exited (${code})`));
      this.child.once('exit', onExit);
      this.waiters.push((l) => {
        this.child.off('exit', onExit);
        resolve(l);
      });
    });
  }

  /** `pauseUs`: rest after each pair of swaps (the link shows in bursts); none: swap without rest. */
  run(pauseUs = 0): void {
    this.child.stdin.write(`run ${pauseUs}\n`);
  }

  /** Stops swapping; both names are back where they began when this settles. */
  async stop(): Promise<void> {
    this.child.stdin.write('stop\n');
    const answer = await this.next();
    const match = /^stopped (\d+)$/.exec(answer);
    if (!match) throw new Error(`the racer answered ${answer}`);
    this.swaps = Number(match[1]);
  }

  /** Runs `body` while the racer swaps, and stops it after. */
  async during<T>(body: () => Promise<T>, pauseUs = 0): Promise<T> {
    this.run(pauseUs);
    try {
      return await body();
    } finally {
      await this.stop();
    }
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.stdin.end();
    await exited;
  }
}
