// The crash sweep and the fault sweep over one scenario. Each point gets a fresh sandbox;
// problems are collected as text (not thrown) so a sweep reports every bad point at once.
import type { Engine } from '../../server/engine/api.js';
import type { RollbackResult } from '../../server/protocol.js';
import { FaultController } from './fault-controller.testutil.js';
import { abandonEngine, openTestEngine, storeLeftovers, watcherOn } from './open-engine.testutil.js';
import { makeSandbox, type Sandbox } from '../../server/testkit/sandbox.js';
import { START_FILES, SESSION, type Scenario, type ScenarioState } from './scenarios.testutil.js';
import { snapshotTree, type Tree } from '../../server/testkit/tree.js';
import { pathsNeitherOldNorNew, treeDiff } from '../../server/testkit/tree-diff.js';

interface Prepared {
  scenario: Scenario;
  sandbox: Sandbox;
  engine: Engine;
  controller: FaultController;
  state: ScenarioState;
  turnStart: Tree;
  before: Tree;
}

async function prepare(scenario: Scenario): Promise<Prepared> {
  const sandbox = await makeSandbox(START_FILES);
  const controller = new FaultController();
  controller.pause();
  const engine = await openTestEngine(sandbox, {
    controller,
    keepSessions: scenario.keepSessions,
    maxFileSize: scenario.maxFileSize,
  });
  let turnStart: Tree | null = null;
  const mark = async () => {
    turnStart = await snapshotTree(sandbox.workspace);
  };
  const state = await scenario.setup(
    engine,
    async (sessionId, title) => {
      await mark();
      const { turnId } = await engine.input({ sessionId, platform: 'webui', sessionType: 'chat', content: title });
      if (!turnId) throw new Error('no turn began: scopes do not match');
      return turnId;
    },
    mark,
  );
  if (!turnStart) throw new Error(`scenario ${scenario.name} began no turn under test`);
  // A turn's start scan runs in the background with the watcher: done before the operation is counted.
  if (watcherOn()) await engine.settled();
  return { scenario, sandbox, engine, controller, state, turnStart, before: await snapshotTree(sandbox.workspace) };
}

export interface Profile {
  /** Filesystem operations the scenario's operation performs. */
  total: number;
  ops: { op: string; path: string }[];
  /** The tree when the operation is done, then the trees between its steps. */
  after: Tree[];
}

/** Runs the operation once with nothing injected, counting its filesystem operations. */
export async function profile(scenario: Scenario): Promise<Profile> {
  const p = await prepare(scenario);
  try {
    p.controller.count();
    const between: Tree[] = [];
    await scenario.run(p.engine, p.state, async () => {
      p.controller.pause();
      between.push(await snapshotTree(p.sandbox.workspace));
      p.controller.resume();
    });
    const ops = [...p.controller.log];
    p.controller.pause();
    return { total: ops.length, ops, after: [await snapshotTree(p.sandbox.workspace), ...between] };
  } finally {
    await p.engine.close().catch(() => {});
    await p.sandbox.cleanup();
  }
}

/** Reopens after the cut, checks the store and the tree, then rolls the turn back to its start. */
async function checkAfterStop(
  p: Prepared,
  after: Tree[],
  label: string,
  engine?: Engine,
  unreadable?: string,
  unlisted?: string,
): Promise<string[]> {
  const problems: string[] = [];
  let reopened: Engine;
  try {
    reopened = engine ?? (await openTestEngine(p.sandbox, {}));
  } catch (e) {
    return [`${label}: store does not open: ${describe(e)}`];
  }
  try {
    const sessions = reopened.listSessions();
    if (!sessions.some((s) => s.sessionId === SESSION)) problems.push(`${label}: session ${SESSION} is not listed`);
    reopened.listTurns(SESSION);
    reopened.getManifest(p.state.turnId);
    const now = await snapshotTree(p.sandbox.workspace);
    for (const path of pathsNeitherOldNorNew([p.before, ...after], now))
      problems.push(`${label}: ${path} is neither its old nor its new state`);
    for (const left of await storeLeftovers(p.sandbox)) problems.push(`${label}: temp file left: ${left}`);
    await finishTurn(reopened);
    // The turn under test may hold the file the fault made unreadable, and only that one.
    const faultPath = unreadable;
    const skipped = reopened
      .getManifest(p.state.turnId)
      .files.filter((f) => f.skipped === 'unreadable')
      .map((f) => f.uri);
    const explained = unreadable !== undefined && skipped.length === 1 && skipped[0] === `workspace:/${unreadable}`;
    // A commit that may not list a folder records it unreadable on the turn, as exec-end does.
    const folderSaid = unlisted !== undefined && skipped.length === 1 && skipped[0] === `workspace:/${unlisted}`;
    if (skipped.length && !explained && !folderSaid)
      problems.push(`${label}: recorded as unreadable: ${skipped.join(', ')}`);
    if (!explained) unreadable = undefined;
    const rerun =
      p.scenario.rerun ?? ((e: Engine, st: ScenarioState, force: boolean) => e.rollback(st.turnId, { force }));
    let result: RollbackResult;
    let forced = false;
    try {
      result = await rerun(reopened, p.state, false);
    } catch (e) {
      // A commit that could not read a file's after-state cannot tell whether it drifted since:
      // that path, and only that one, asks for force.
      const conflicts = (e as { details?: { conflicts?: string[] } }).details?.conflicts;
      if (!faultPath || JSON.stringify(conflicts) !== JSON.stringify([`workspace:/${faultPath}`])) throw e;
      result = await rerun(reopened, p.state, true);
      forced = true;
    }
    // Forced past that path, the rollback restores it (its original was kept before the change):
    // nothing is left to report, and the tree must be the turn's start there too. An original the
    // capture could not read is never restored: IO, and the path is left as it is.
    if (forced) unreadable = undefined;
    const expectedErrors = unreadable ? [{ uri: `workspace:/${unreadable}`, code: 'IO' }] : [];
    // Folders the turn created down to an unlisted one may hold what it could not see: left, as NOT_EMPTY.
    const leftAsNotEmpty = (e: { uri: string; code: string }) =>
      unlisted !== undefined &&
      e.code === 'NOT_EMPTY' &&
      `${unlisted}/`.startsWith(`${e.uri.slice('workspace:/'.length)}/`);
    const errors = result.errors.filter((e) => !leftAsNotEmpty(e)).map((e) => ({ uri: e.uri, code: e.code }));
    if (
      (result.ok !== (expectedErrors.length === 0) && errors.length === result.errors.length) ||
      JSON.stringify(errors) !== JSON.stringify(expectedErrors)
    ) {
      problems.push(`${label}: rollback afterwards: ok ${result.ok}, errors ${JSON.stringify(result.errors)}`);
    }
    const end = await snapshotTree(p.sandbox.workspace);
    // A folder a scan could not list: what a command did below it is unknown, which its command must say.
    const blind = unlisted !== undefined && saidUnreadable(reopened, p.state.turnId, unlisted);
    if (unlisted !== undefined && !blind && treeDiff(p.turnStart, end).some((d) => d.path.startsWith(`${unlisted}/`))) {
      problems.push(`${label}: the folder ${unlisted} could not be listed, and no command of the turn says so`);
    }
    for (const d of treeDiff(p.turnStart, end)) {
      if (
        d.path === unreadable ||
        (blind && `${unlisted}/`.startsWith(`${d.path}/`)) ||
        (blind && d.path.startsWith(`${unlisted}/`))
      )
        continue;
      problems.push(
        `${label}: after rollback ${d.path} is ${JSON.stringify(d.b)}, turn start had ${JSON.stringify(d.a)}`,
      );
    }
    for (const found of (await p.scenario.check?.(reopened, p.state)) ?? []) problems.push(`${label}: ${found}`);
  } catch (e) {
    problems.push(`${label}: ${describe(e)}`);
  } finally {
    await reopened.close().catch((e) => problems.push(`${label}: close failed: ${describe(e)}`));
  }
  return problems;
}

/** The store still opens and lists after the engine that met the fault closed it. */
async function reopens(sandbox: Sandbox, label: string): Promise<string[]> {
  try {
    const engine = await openTestEngine(sandbox, {});
    try {
      for (const s of engine.listSessions()) engine.listTurns(s.sessionId);
    } finally {
      await engine.close();
    }
    return [];
  } catch (e) {
    return [`${label}: store does not reopen: ${describe(e)}`];
  }
}

/** A turn the cut left active is ended, as the agent would on its next turn. */
async function finishTurn(engine: Engine): Promise<void> {
  if (engine.listSessions().some((s) => s.sessionId === SESSION && s.activeTurnId))
    await engine.turnEnd({ sessionId: SESSION });
}

/**
 * Freezes the engine before its `at`-th filesystem operation, then checks as after a crash.
 * `ops`: the profile's operations, so a failing point names the one it cut before.
 */
export async function crashAt(scenario: Scenario, at: number, after: Tree[], ops?: Profile['ops']): Promise<string[]> {
  const p = await prepare(scenario);
  const short = (op: { op: string; path: string }) => `${op.op} ${op.path.split('/').slice(-2).join('/')}`;
  const cut = ops?.[at - 1];
  let label = `${scenario.name} crash before op ${at}${cut ? ` (${short(cut)})` : ''}`;
  try {
    const crashed = p.controller.crashAt(at);
    const outcome = await Promise.race([
      crashed.then(() => 'crashed' as const),
      scenario.run(p.engine, p.state).then(
        () => 'finished' as const,
        (e) => e as unknown,
      ),
    ]);
    if (outcome !== 'crashed')
      // The run made fewer operations than the profile counted: a cut point that depends on timing.
      return [
        `${label}: the operation ended before the cut, after ${p.controller.log.length} operations (${outcome === 'finished' ? 'finished' : describe(outcome)})`,
      ];
    // Another operation at this point than the profile's: the order of operations depends on timing.
    const actual = p.controller.log[at - 1];
    if (cut && actual && (actual.op !== cut.op || actual.path !== cut.path))
      label += ` [this run cut before ${short(actual)}: the operations came in another order than profiled]`;
    await abandonEngine(p.sandbox, p.engine);
    return await checkAfterStop(p, after, label);
  } finally {
    await p.sandbox.cleanup();
  }
}

export interface FaultOutcome {
  problems: string[];
  injected: boolean;
}

/** Fails the `at`-th matching filesystem operation with `code`; the engine lives on. */
export async function faultAt(
  scenario: Scenario,
  at: number,
  code: string,
  after: Tree[],
  only?: (op: { op: string; path: string }) => boolean,
): Promise<FaultOutcome> {
  const p = await prepare(scenario);
  let label = `${scenario.name} ${code} at op ${at}`;
  const problems: string[] = [];
  try {
    p.controller.faultAt(at, code, only);
    let thrown: unknown = null;
    let value: unknown;
    try {
      value = await scenario.run(p.engine, p.state);
    } catch (e) {
      thrown = e;
    }
    p.controller.pause();
    const op = p.controller.injected;
    const injected = op !== null;
    if (op) label += ` (${op.op} ${op.path.slice(p.sandbox.base.length + 1)})`;
    const unreadable = op ? unreadableSource(p.sandbox, op, code) : undefined;
    const unlisted = op ? unlistedFolder(p.sandbox, op, code) : undefined;
    if (thrown !== null && !hasCode(thrown)) problems.push(`${label}: error without a code: ${describe(thrown)}`);
    if (thrown === null && isResult(value) && !value.ok) {
      for (const err of value.errors)
        if (!err.code) problems.push(`${label}: result error without a code: ${JSON.stringify(err)}`);
    }
    problems.push(...(await checkAfterStop(p, after, label, p.engine, unreadable, unlisted)));
    problems.push(...(await reopens(p.sandbox, label)));
    return { problems, injected };
  } finally {
    await p.engine.close().catch(() => {});
    await p.sandbox.cleanup();
  }
}

/**
 * A capture that cannot read the workspace file itself records it as `skipped: unreadable`
 * and lets the mutation happen (as for too-large files); its rollback then reports `IO`.
 * Only that case is accepted: a failure writing the engine's own store is not "unreadable".
 */
function unreadableSource(sandbox: Sandbox, op: { op: string; path: string }, code: string): string | undefined {
  const inWorkspace = op.path.startsWith(sandbox.workspace + '/');
  if (code !== 'EACCES' || !inWorkspace || !['readFile', 'read'].includes(op.op)) return undefined;
  return op.path.slice(sandbox.workspace.length + 1);
}

/** A scan that may not list a workspace folder (below the root) goes on without what lies below it. */
function unlistedFolder(sandbox: Sandbox, op: { op: string; path: string }, code: string): string | undefined {
  if (code !== 'EACCES' || op.op !== 'readdir' || !op.path.startsWith(sandbox.workspace + '/')) return undefined;
  return op.path.slice(sandbox.workspace.length + 1);
}

function saidUnreadable(engine: Engine, turnId: string, rel: string): boolean {
  return engine
    .getManifest(turnId)
    .turn.execCommands.some((c) => c.skipped?.some((s) => s.uri === `workspace:/${rel}` && s.reason === 'unreadable'));
}

function hasCode(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.length > 0 && typeof (e as Error).message === 'string';
}

function isResult(v: unknown): v is RollbackResult {
  return typeof v === 'object' && v !== null && 'ok' in v && Array.isArray((v as RollbackResult).errors);
}

export function describe(e: unknown): string {
  if (e instanceof Error) return `${(e as { code?: string }).code ?? e.name}: ${e.message}`;
  return String(e);
}
