// The soak of `npm run test:reliability` (soak.testutil.ts): 5 git repositories, 6 agents of
// Claude Code, Codex and Gemini in parallel through the installed hook, a SIGKILL of the
// service every few seconds, two sessions moving between two of the repositories. Every turn
// must undo to its exact start tree, and every change must be in exactly one turn. Reliability
// run only: it runs for minutes (TURNBACK_SOAK_SECONDS, default 180).
import { afterAll, expect, it } from 'vitest';
import { FULL } from './mode.testutil.js';
import { runSoak, type SoakFigures } from './soak.testutil.js';
import { newTally, writeTally } from './tally.testutil.js';

const SECONDS = Number(process.env.TURNBACK_SOAK_SECONDS) || 180;
const SEED = Number(process.env.TURNBACK_SOAK_SEED) || Date.now() % 100_000;

const tally = newTally();
afterAll(() => writeTally('soak', tally));

it.skipIf(!FULL && !process.env.TURNBACK_SOAK_SECONDS)(
  `soak: ${SECONDS} s, a SIGKILL every 3 to 8 s: every turn undoes to its start tree, every change in one turn`,
  { timeout: (SECONDS + 900) * 1000 },
  async () => {
    const figures: SoakFigures = await runSoak({
      seconds: SECONDS,
      killEveryMs: [3_000, 8_000],
      agents: 6,
      seed: SEED,
      log: (line) => console.log(line),
    });
    console.log(`soak figures: ${JSON.stringify({ ...figures, notes: undefined })}`);
    for (const note of figures.notes) console.log(`soak: ${note}`);
    tally.cases += figures.turns;
    tally.crashPoints += figures.kills;
    tally.requests += figures.hooks;
    tally.failures +=
      figures.notRestored + figures.notInTurn + figures.inTwoTurns + figures.lostTurns + figures.unlinked;
    tally.notes.push(
      `seed ${figures.seed}, ${figures.seconds} s: ${figures.turns} turns (${figures.movedTurns} moved between projects), ` +
        `${figures.steps} tool calls, ${figures.kills} SIGKILLs, ${figures.files} paths changed; ` +
        `${figures.restoredExact} restored exactly, ${figures.notRestored} not (${figures.missedPaths} paths), ` +
        `${figures.notInTurn} changes in no turn, ${figures.inTwoTurns} in two, ${figures.lostTurns} turns lost, ` +
        `${figures.unlinked} moved turns not linked, ` +
        `${figures.told} hooks told the person`,
    );
    expect(figures.turns).toBeGreaterThan(0);
    expect(figures.kills).toBeGreaterThan(0);
    expect(figures.notes).toEqual([]);
  },
);
