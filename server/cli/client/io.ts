// What a terminal command reads and writes, so the commands run the same in the bin and in tests.
import { realpathSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** The real path of the folder the command runs in (the workspace is found from it). */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Colour on stdout: a terminal, and NO_COLOR unset (https://no-color.org). */
  colour: boolean;
  /** A person can answer a question (stdin and stderr are terminals). */
  interactive: boolean;
  ask(question: string): Promise<string>;
  /** How to run this same bin (`turnback start` is run this way when no service answers). */
  bin: string[];
}

export function processIo(): Io {
  const colour = process.stdout.isTTY === true && !process.env.NO_COLOR && process.env.TERM !== 'dumb';
  return {
    out: (text) => {
      process.stdout.write(text);
    },
    err: (text) => {
      process.stderr.write(text);
    },
    cwd: realpathSync(process.cwd()),
    env: process.env,
    colour,
    interactive: process.stdin.isTTY === true && process.stderr.isTTY === true,
    bin: [process.execPath, ...process.execArgv, process.argv[1]],
    // Ctrl-D or Ctrl-C at the prompt answers "no": readline would otherwise leave the question
    // pending (on end of input) or pause the input (on SIGINT), and the command would hang.
    ask: (question) =>
      new Promise<string>((resolve) => {
        const prompt = createInterface({ input: process.stdin, output: process.stderr });
        let settled = false;
        const decline = () => {
          if (settled) return;
          settled = true;
          process.stderr.write('\n');
          prompt.close();
          resolve('');
        };
        prompt.once('close', decline).once('SIGINT', decline);
        prompt.question(question).then((answer) => {
          settled = true;
          prompt.close();
          resolve(answer);
        }, decline);
      }),
  };
}

/** ANSI styles, or nothing when colour is off (a pipe, a file, NO_COLOR). */
export interface Paint {
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

export function paint(colour: boolean): Paint {
  const style = (open: number, close: number) => (text: string) =>
    colour ? `\x1b[${open}m${text}\x1b[${close}m` : text;
  return {
    red: style(31, 39),
    green: style(32, 39),
    yellow: style(33, 39),
    cyan: style(36, 39),
    dim: style(2, 22),
    bold: style(1, 22),
  };
}
