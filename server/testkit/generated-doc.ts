// The figures in docs/performance.md and docs/reliability.md are written by the runs that
// measure them (`npm run bench`, `npm run test:reliability`), never by hand: a full run replaces
// the block between its two markers and leaves the prose around it (methods, what was tried) as
// it is. A quick or partial run writes nothing, so a smoke run never stands in for the figures.
import { readFile, writeFile } from 'node:fs/promises';

const begin = (name: string): string => `<!-- ${name}:begin (written by the run; do not edit by hand) -->`;
const end = (name: string): string => `<!-- ${name}:end -->`;

/** Replaces the `name` block of the Markdown file with `body` (appended, with its markers, when the file has none). */
export async function writeGeneratedBlock(file: string, name: string, body: string): Promise<void> {
  let text = '';
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await writeFile(file, replaceGeneratedBlock(text, name, body));
}

export function replaceGeneratedBlock(text: string, name: string, body: string): string {
  const block = `${begin(name)}\n${body.trimEnd()}\n${end(name)}`;
  const start = text.indexOf(begin(name));
  const stop = text.indexOf(end(name));
  if (start === -1 || stop < start) return `${text.trimEnd()}${text ? '\n\n' : ''}${block}\n`;
  return text.slice(0, start) + block + text.slice(stop + end(name).length);
}
