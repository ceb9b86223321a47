// A command's text is kept up to a bound, and a turn's commands are rows of their own: eight
// 16 MiB commands in one turn leave a small store, a small listing and rows of bounded size;
// the full (bounded) text is read only for the command asked for.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { COMMAND_PREVIEW_LIMIT, COMMAND_TEXT_LIMIT } from '../../server/protocol.js';
import { makeSandbox, plant, who } from '../../server/testkit/engine-harness.js';

const MiB = 1 << 20;

async function storeBytes(dataDir: string): Promise<number> {
  let total = 0;
  for (const name of ['turnback.db', 'turnback.db-wal'])
    total += await stat(join(dataDir, 'store', name)).then(
      (s) => s.size,
      () => 0,
    );
  return total;
}

describe('command text', () => {
  it('eight 16 MiB commands in one turn: each kept to 64 KiB with its size, the store, rows and listing stay small', async () => {
    const sandbox = await makeSandbox();
    await plant(sandbox.workspace, { 'a.txt': 'a\n' });
    const engine = await sandbox.open();
    const { turnId } = await engine.input({
      ...who(),
      platform: 'webui',
      sessionType: 'chat',
      content: 'huge heredocs',
    });
    const storeBefore = await storeBytes(sandbox.dataDir);
    const execIds: string[] = [];
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    for (let i = 0; i < 8; i++) {
      // A heredoc of 16 MiB, with a multi-byte character right at the bound.
      const command = `cat > f${i} <<'EOF'\n` + 'é'.repeat(8 * MiB) + '\nEOF';
      const { execId } = await engine.exec({ ...who(), tool: 'Bash', command });
      await engine.execEnd({ ...who(), execId: execId! });
      execIds.push(execId!);
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }
    // The commands themselves are 8 MiB strings here (one byte a character); what the engine adds is far below a command each.
    expect(rssPeak - rssBefore).toBeLessThan(256 * MiB);
    await engine.turnEnd(who());
    const grown = (await storeBytes(sandbox.dataDir)) - storeBefore;
    expect(grown).toBeLessThan(8 * COMMAND_TEXT_LIMIT + 4 * MiB);

    const listing = engine.listTurns('s1');
    const size = Buffer.byteLength(JSON.stringify(listing));
    expect(size).toBeLessThan(8 * 4 * COMMAND_PREVIEW_LIMIT + 16_384);
    const listed = listing[0].execCommands;
    expect(listed.map((c) => c.execId)).toEqual(execIds);
    for (const c of listed) {
      expect(Array.from(c.command).length).toBe(COMMAND_PREVIEW_LIMIT);
      expect(c).toMatchObject({ commandBytes: 16 * MiB + 21, truncated: true });
    }
    expect(engine.getManifest(turnId!).turn.execCommands).toEqual(listed);

    const full = engine.command(turnId!, execIds[3]);
    expect(Buffer.byteLength(full.command)).toBeLessThanOrEqual(COMMAND_TEXT_LIMIT);
    expect(Buffer.byteLength(full.command)).toBeGreaterThan(COMMAND_TEXT_LIMIT - 4);
    expect(full.command.startsWith("cat > f3 <<'EOF'\néé")).toBe(true);
    expect(full.command).not.toContain('\uFFFD');
    expect(full).toMatchObject({ execId: execIds[3], tool: 'Bash', commandBytes: 16 * MiB + 21, truncated: true });
    await engine.close();

    // Each command is a row of its own, its text bounded; the turn's row holds none of them.
    const db = new Database(join(sandbox.dataDir, 'store', 'turnback.db'), { readonly: true });
    const rows = db
      .prepare('SELECT length(CAST(command AS BLOB)) AS n FROM commands WHERE turn_id = ?')
      .all(turnId) as { n: number }[];
    expect(rows).toHaveLength(8);
    for (const { n } of rows) expect(n).toBeLessThanOrEqual(COMMAND_TEXT_LIMIT);
    const columns = (db.prepare('PRAGMA table_info(turns)').all() as { name: string }[]).map((c) => c.name);
    expect(columns).not.toContain('exec_commands');
    db.close();
  });

  it('a short command is kept whole, shown whole in the listing, and not marked truncated', async () => {
    const sandbox = await makeSandbox();
    const engine = await sandbox.open();
    const { turnId } = await engine.input({ ...who(), platform: 'webui', sessionType: 'chat', content: 'ls' });
    const { execId } = await engine.exec({ ...who(), tool: 'Bash', command: 'ls -la' });
    await engine.execEnd({ ...who(), execId: execId! });
    await engine.turnEnd(who());
    const [listed] = engine.listTurns('s1')[0].execCommands;
    expect(listed).toMatchObject({ command: 'ls -la', commandBytes: 6 });
    expect(listed.truncated).toBeUndefined();
    expect(engine.command(turnId!, execId!)).toEqual(listed);
  });

  it('an unknown command is COMMAND_NOT_FOUND, an unknown turn TURN_NOT_FOUND', async () => {
    const sandbox = await makeSandbox();
    const engine = await sandbox.open();
    const { turnId } = await engine.input({ ...who(), platform: 'webui', sessionType: 'chat', content: 'x' });
    expect(() => engine.command(turnId!, 'x_nope')).toThrow(expect.objectContaining({ code: 'COMMAND_NOT_FOUND' }));
    expect(() => engine.command('t_nope', 'x_nope')).toThrow(expect.objectContaining({ code: 'TURN_NOT_FOUND' }));
  });
});
