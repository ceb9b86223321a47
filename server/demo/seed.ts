// Seeds the demo once: writes the starting project into an empty workspace, replays the
// scripted sessions, and leaves a marker in the data dir so a rerun does not add them again.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Engine } from '../engine/api.js';
import { largeFixture, PROJECT_FILES } from './project.js';
import { replaySession } from './replay.js';
import { DEMO_SESSIONS, LARGE_FIXTURE_BYTES } from './script.js';

const MARKER = 'demo-seeded.json';

export class DemoWorkspaceNotEmptyError extends Error {}

export function isSeeded(dataDir: string): boolean {
  return existsSync(path.join(dataDir, MARKER));
}

function writeProject(workspace: string): void {
  const files = { ...PROJECT_FILES, 'fixtures/large-dataset.json': largeFixture(1, LARGE_FIXTURE_BYTES) };
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(workspace, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/** Returns true when it seeded, false when the data dir was seeded before. */
export async function seedDemo(engine: Engine): Promise<boolean> {
  if (isSeeded(engine.dataDir)) return false;
  // Never write the demo project over files that are someone's work.
  if (readdirSync(engine.workspace).length > 0) {
    throw new DemoWorkspaceNotEmptyError(
      `the demo workspace ${engine.workspace} is not empty and was not seeded by turnback demo; pass a new or empty --workspace`,
    );
  }
  writeProject(engine.workspace);
  const toRollBack: string[] = [];
  for (const session of DEMO_SESSIONS) toRollBack.push(...(await replaySession(engine, session)));
  for (const turnId of toRollBack) await engine.rollback(turnId);
  writeFileSync(
    path.join(engine.dataDir, MARKER),
    `${JSON.stringify({ seededAt: new Date().toISOString(), sessions: DEMO_SESSIONS.map((s) => s.sessionId) })}\n`,
  );
  return true;
}
