// File contents that prove themselves whole: a header naming the file and version, a body
// that follows from both, and a trailer. A torn or truncated write fails `isWhole`. Versions of
// one name share most of their body (a few lines differ, as an agent's edits would), so the
// store keeps them as delta chains and the runs that use them exercise those chains.
import { createHash } from 'node:crypto';

const hex = (text: string) => createHash('sha256').update(text).digest('hex');

function bodyLines(name: string): number {
  return 40 + (parseInt(hex(`${name}#lines`).slice(0, 8), 16) % 120);
}

export function versionedContent(name: string, version: number): string {
  const lines = Array.from({ length: bodyLines(name) }, (_, i) => `${name} line ${i} ${hex(`${name}@${i}`)}`);
  // The version changes a few lines, spread by its own hash.
  const stamp = hex(`${name}@v${version}`);
  for (let k = 0; k < 3; k++)
    lines[parseInt(stamp.slice(k * 8, k * 8 + 8), 16) % lines.length] = `${name} edited in v${version} (${k})`;
  return `turnback-test ${name} v${version}\n${lines.join('\n')}\nend ${name} v${version}\n`;
}

/** True when the text is exactly one whole versioned content (of any name: renames move it). */
export function isWhole(text: string): boolean {
  const m = /^turnback-test (\S+) v(\d+)\n/.exec(text);
  return m !== null && text === versionedContent(m[1], Number(m[2]));
}
