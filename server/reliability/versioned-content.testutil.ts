// File contents that prove themselves whole: a header naming the file and version, a body
// whose length follows from both, and a trailer. A torn or truncated write fails `isWhole`.
import { createHash } from 'node:crypto';

function bodyLength(name: string, version: number): number {
  const h = createHash('sha256').update(`${name}#${version}`).digest();
  return 16 + (h.readUInt32BE(0) % 6000);
}

export function versionedContent(name: string, version: number): string {
  const fill = createHash('sha256').update(`${name}@${version}`).digest('hex');
  const body = fill.repeat(Math.ceil(bodyLength(name, version) / fill.length)).slice(0, bodyLength(name, version));
  return `turnback-test ${name} v${version}\n${body}\nend ${name} v${version}\n`;
}

/** True when the text is exactly one whole versioned content (of any name: renames move it). */
export function isWhole(text: string): boolean {
  const m = /^turnback-test (\S+) v(\d+)\n/.exec(text);
  return m !== null && text === versionedContent(m[1], Number(m[2]));
}
