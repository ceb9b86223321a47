// Obvious secrets masked in a prompt before it goes into a note that others may fetch.
const PATTERNS: RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\b(AKIA|ASIA)[A-Z0-9]{16}\b/g,
  /\bxox[abpors]-[A-Za-z0-9-]{10,}/g,
  /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g,
];
const ASSIGNED = /\b([A-Za-z_]*(?:key|token|secret|password|passwd|pwd)[A-Za-z_]*)(\s*[=:]\s*["']?)([^\s"']{8,})/gi;

export const MASK = '[masked]';

export function maskSecrets(text: string): string {
  let out = text;
  for (const pattern of PATTERNS) out = out.replace(pattern, MASK);
  return out.replace(ASSIGNED, (_all, name: string, sep: string) => `${name}${sep}${MASK}`);
}
