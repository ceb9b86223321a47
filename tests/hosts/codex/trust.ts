// Pre-trusting hooks for a real-CLI run, the way Codex's own `/hooks` does it: Codex runs a
// project or user hook only once its definition's hash is recorded as trusted in config.toml
// (`[hooks.state."<hooks.json path>:<event>:<group>:<handler>"] trusted_hash = "sha256:…"`),
// and runs a project's `.codex/` layer only in a trusted project
// (`[projects."<path>"] trust_level = "trusted"`). The keys and hashes come from Codex itself:
// its app server answers `hooks/list` with each hook's key, current hash and trust status.
import { spawn } from 'node:child_process';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface ListedHook {
  key: string;
  eventName: string;
  command: string | null;
  timeoutSec: number;
  source: string;
  currentHash: string;
  trustStatus: string;
}

const toml = (text: string) => JSON.stringify(text);

/** Codex's own list of the hooks that apply in `cwd` (`codex app-server`, `hooks/list`). */
export function listHooks(codexBin: string, env: NodeJS.ProcessEnv, cwd: string): Promise<ListedHook[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [codexBin, 'app-server'], { env, cwd, stdio: ['pipe', 'pipe', 'ignore'] });
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error('codex app-server did not answer hooks/list'));
    }, 30_000);
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    createInterface({ input: child.stdout }).on('line', (line) => {
      let message: { id?: number; result?: { data?: { hooks: ListedHook[] }[] }; error?: unknown };
      try {
        message = JSON.parse(line);
      } catch {
        return;
      }
      if (message.id === 1) {
        send({ jsonrpc: '2.0', method: 'initialized' });
        send({ jsonrpc: '2.0', id: 2, method: 'hooks/list', params: { cwds: [cwd] } });
      } else if (message.id === 2) {
        clearTimeout(timer);
        child.stdin.end();
        child.kill();
        if (message.error) reject(new Error(`hooks/list failed: ${JSON.stringify(message.error)}`));
        else resolve((message.result?.data ?? []).flatMap((entry) => entry.hooks));
      }
    });
    child.on('error', reject);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { clientInfo: { name: 'turnback-tests', version: '1' } },
    });
  });
}

/** Marks the project trusted, so Codex loads its `.codex/` layer (hooks.json included). */
export async function trustProject(codexHome: string, project: string): Promise<void> {
  await appendFile(join(codexHome, 'config.toml'), `\n[projects.${toml(project)}]\ntrust_level = "trusted"\n`);
}

/** Trusts every hook Codex lists for `cwd` as it is now; answers what was trusted. */
export async function trustHooks(
  codexBin: string,
  env: NodeJS.ProcessEnv,
  codexHome: string,
  cwd: string,
): Promise<ListedHook[]> {
  const untrusted = (await listHooks(codexBin, env, cwd)).filter((hook) => hook.trustStatus !== 'trusted');
  const entries = untrusted.map(
    (hook) => `\n[hooks.state.${toml(hook.key)}]\ntrusted_hash = ${toml(hook.currentHash)}\n`,
  );
  await appendFile(join(codexHome, 'config.toml'), entries.join(''));
  return untrusted;
}
