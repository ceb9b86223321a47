// The package version reported by GET /api/health. package.json sits two levels above both
// server/http/ (sources) and build/http/ (compiled), so one relative path serves both.
import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function packageVersion(): string {
  if (cached === undefined) {
    try {
      const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
      cached = String((JSON.parse(text) as { version?: unknown }).version ?? '0.0.0');
    } catch {
      cached = '0.0.0';
    }
  }
  return cached;
}
