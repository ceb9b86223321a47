// The soak (issue 37; docs/reliability.md "Soak"): agents of three hosts work in parallel on
// five git repositories through the installed hook, while the person's service is SIGKILLed
// every few seconds (the next hook starts it again); two agents move their sessions between
// two of the repositories, in a turn and from one turn to the next. Each repository is worked
// by one turn at a time, so its tree before each turn is known exactly. At the end every turn
// is undone, newest first, in each repository on its own: the tree must then equal the
// snapshot taken before that turn (sha256 and mode of every file), and every path the turn
// changed must be among its recorded paths, and in no other turn's.
import { rm, writeFile, readFile, mkdir } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { HOSTS, payloadsOf, type FileEdit, type HostName, type HostPayloads } from './soak-hosts.testutil.js';
import {
  api,
  differing,
  hook,
  killService,
  makeWorld,
  putBack,
  snapshot,
  stopService,
  type Snapshot,
  type World,
} from './soak-world.testutil.js';
import type { FileChange, Turn, Session, Workspace } from '../../server/protocol.js';

export interface SoakOptions {
  seconds: number;
  /** A SIGKILL of the service every this many ms (a random time in the range). */
  killEveryMs: [number, number];
  agents: number;
  seed: number;
  log?: (line: string) => void;
}

export interface SoakFigures {
  seconds: number;
  seed: number;
  agents: number;
  workspaces: number;
  /** Turns the agents ran, counted once per workspace they worked in. */
  turns: number;
  /** Of them, turns that moved from one repository to the other. */
  movedTurns: number;
  kills: number;
  hooks: number;
  /** Hooks that told the person something was not recorded. */
  told: number;
  steps: number;
  /** Paths changed, summed over turns. */
  files: number;
  restoredExact: number;
  /** Turns whose undo did not give back their start tree (each named in `notes`). */
  notRestored: number;
  /** Paths that differed from the start tree after the turn's undo. */
  missedPaths: number;
  /** Paths a turn changed that none of its recorded turns holds. */
  notInTurn: number;
  /** Paths a turn changed that another turn of the same workspace holds too, that turn not having changed them. */
  inTwoTurns: number;
  /** Turns recorded with no agent turn of that title (a split, a stray). */
  strayTurns: number;
  /** Agent turns with no recorded turn at all in a workspace they changed. */
  lostTurns: number;
  /** Turns that moved between the two repositories whose recorded turns do not name each other (Turn.linked). */
  unlinked: number;
  conflicts: number;
  notes: string[];
}

interface TurnRecord {
  prompt: string;
  agent: number;
  host: HostName;
  before: Snapshot;
  after: Snapshot;
  told: boolean;
  moved: boolean;
  /** What the agent did, for a note on a miss: each call with the time its hooks ran. */
  steps: string[];
}

/** A small seeded generator (mulberry32): a failing run can be run again as it was. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** One repository worked by one turn at a time: a turn of a mover holds both of its repositories. */
class Locks {
  private readonly tails = new Map<string, Promise<void>>();
  async hold<T>(repos: string[], work: () => Promise<T>): Promise<T> {
    const sorted = [...repos].sort();
    const releases: (() => void)[] = [];
    for (const repo of sorted) {
      const previous = this.tails.get(repo) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((resolve) => (release = resolve));
      this.tails.set(
        repo,
        previous.then(() => mine),
      );
      await previous;
      releases.push(release);
    }
    try {
      return await work();
    } finally {
      for (const release of releases) release();
    }
  }
}

interface Agent {
  index: number;
  host: HostName;
  sessionId: string;
  payloads: HostPayloads;
  /** The repositories it works in: one, or two for a mover. */
  repos: string[];
  cwd: string;
}

export async function runSoak(options: SoakOptions): Promise<SoakFigures> {
  const log = options.log ?? (() => undefined);
  const world = await makeWorld(5);
  const random = rng(options.seed);
  const figures: SoakFigures = {
    seconds: options.seconds,
    seed: options.seed,
    agents: options.agents,
    workspaces: world.repos.length,
    turns: 0,
    movedTurns: 0,
    kills: 0,
    hooks: 0,
    told: 0,
    steps: 0,
    files: 0,
    restoredExact: 0,
    notRestored: 0,
    missedPaths: 0,
    notInTurn: 0,
    inTwoTurns: 0,
    strayTurns: 0,
    lostTurns: 0,
    unlinked: 0,
    conflicts: 0,
    notes: [],
  };
  const history = new Map<string, TurnRecord[]>(world.repos.map((repo) => [repo, []]));
  const locks = new Locks();
  // Agents 0 and 1 move between the first two repositories; the others stay in one each.
  const agents: Agent[] = Array.from({ length: options.agents }, (_, index) => {
    const host = HOSTS[index % HOSTS.length];
    const sessionId = randomUUID();
    const repos = index < 2 ? [world.repos[0], world.repos[1]] : [world.repos[index % world.repos.length]];
    const transcript = path.join(world.root, 'transcripts', `${sessionId}.jsonl`);
    return { index, host, sessionId, payloads: payloadsOf(host, sessionId, transcript), repos, cwd: repos[0] };
  });
  const deadline = Date.now() + options.seconds * 1000;
  let running = true;

  const send = async (agent: Agent, payload: unknown): Promise<boolean> => {
    figures.hooks++;
    const { told } = await hook(world, agent.host, payload);
    if (told) figures.told++;
    return told;
  };

  const killer = (async () => {
    const [low, high] = options.killEveryMs;
    while (running) {
      await pause(low + random() * (high - low));
      if (!running) break;
      if (await killService(world)) figures.kills++;
    }
  })();

  const work = async (agent: Agent, turnNo: number, pick: () => number): Promise<void> => {
    const prompt = `soak agent ${agent.index} turn ${turnNo}`;
    await locks.hold(agent.repos, async () => {
      const before = new Map<string, Snapshot>();
      for (const repo of agent.repos) before.set(repo, await snapshot(repo));
      if (agent.repos.length > 1) agent.cwd = agent.repos[pick() < 0.5 ? 0 : 1];
      const touched = new Set([agent.cwd]);
      const steps: string[] = [`${stamp()} prompt in ${path.basename(agent.cwd)}`];
      let told = await send(agent, agent.payloads.prompt(agent.cwd, prompt));
      const calls = 2 + Math.floor(pick() * 4);
      for (let call = 0; call < calls; call++) {
        if (agent.repos.length > 1 && pick() < 0.2) {
          agent.cwd = agent.repos.find((repo) => repo !== agent.cwd)!;
          touched.add(agent.cwd);
        }
        const step = await oneStep(agent, pick, send);
        steps.push(`${step.what} in ${path.basename(agent.cwd)}`);
        told = step.told || told;
        figures.steps++;
      }
      told = (await send(agent, agent.payloads.stop(agent.cwd))) || told;
      steps.push(`${stamp()} stop`);
      for (const repo of agent.repos) {
        const after = await snapshot(repo);
        if (!touched.has(repo)) continue;
        history.get(repo)!.push({
          prompt,
          agent: agent.index,
          host: agent.host,
          before: before.get(repo)!,
          after,
          told,
          moved: touched.size > 1,
          steps,
        });
      }
    });
  };

  await Promise.all(
    agents.map(async (agent) => {
      const pick = rng(options.seed * 31 + agent.index + 1);
      for (let turnNo = 1; Date.now() < deadline; turnNo++) {
        await work(agent, turnNo, pick);
        await pause(pick() * 300);
      }
      // The session ends: a turn a crash left going on there is committed.
      for (const repo of agent.repos) await send(agent, agent.payloads.end(repo));
    }),
  );
  running = false;
  await killer;
  log(`soak: agents done, ${figures.kills} kills, ${figures.hooks} hooks`);

  // A clean stop commits whatever a crash left going on; a hook starts the service again.
  await stopService(world);
  await hook(world, 'claude-code', {
    session_id: randomUUID(),
    transcript_path: '',
    cwd: world.repos[0],
    hook_event_name: 'SessionEnd',
    reason: 'other',
  });
  try {
    await verify(world, history, figures, log);
  } finally {
    await stopService(world);
    await keepLogs(world, figures);
    await rm(world.root, { recursive: true, force: true });
  }
  return figures;
}

const stamp = () => new Date().toISOString().slice(11, 23);

/** One call of the agent: a shell command (most often) or its host's file tool; `told` when a hook told the person something. */
async function oneStep(
  agent: Agent,
  pick: () => number,
  send: (a: Agent, p: unknown) => Promise<boolean>,
): Promise<{ told: boolean; what: string }> {
  const files = [...(await snapshot(agent.cwd))].filter(([, kept]) => kept.type === 'file').map(([rel]) => rel);
  const any = () => files[Math.floor(pick() * files.length)];
  const fresh = () => `n${agent.index}-${Math.floor(pick() * 1e9).toString(36)}.txt`;
  const token = () => Math.floor(pick() * 1e12).toString(36);
  if (pick() < 0.35 && files.length > 0) {
    const existed = pick() < 0.6;
    const rel = existed ? any() : `src/${fresh()}`;
    const remove = agent.host === 'codex' && existed && pick() < 0.2;
    const abs = path.join(agent.cwd, rel);
    const oldText = existed ? await readFile(abs, 'utf8') : undefined;
    const edit: FileEdit = { rel, text: remove ? null : `${token()}\n${token()}\n`, existed, oldText };
    const call = agent.payloads.file(agent.cwd, edit);
    if (call) {
      const began = stamp();
      let told = await send(agent, call.before);
      const ran = stamp();
      if (edit.text === null) await rm(abs, { force: true });
      else {
        await mkdir(path.dirname(abs), { recursive: true });
        await writeFile(abs, edit.text);
      }
      told = (await send(agent, call.after)) || told;
      return {
        told,
        what: `${began} file tool ${edit.text === null ? 'deletes' : 'writes'} ${rel} (ran ${ran}, ended ${stamp()})`,
      };
    }
  }
  const ops: (() => string)[] = [
    () => `mkdir -p src/gen && printf '%s\\n' ${token()} > src/gen/${fresh()}`,
    () => `printf '%s\\n' ${token()} >> ${quote(any())}`,
    () => `rm -f -- ${quote(any())}`,
    () => `mkdir -p docs/moved && mv -- ${quote(any())} docs/moved/${fresh()}`,
    () => `chmod ${pick() < 0.5 ? '+x' : '-x'} -- ${quote(any())}`,
    () => `for i in 1 2 3; do printf '%s\\n' ${token()}$i > src/batch-${token()}-$i.txt; done`,
    () => `rm -rf docs/moved`,
  ];
  const command = files.length === 0 ? ops[0]() : ops[Math.floor(pick() * (files.length > 40 ? 3 : ops.length - 1))]();
  const call = agent.payloads.shell(agent.cwd, command);
  const began = stamp();
  let told = await send(agent, call.before);
  const ran = stamp();
  spawnSync('sh', ['-c', command], { cwd: agent.cwd, stdio: 'ignore' });
  told = (await send(agent, call.after)) || told;
  return { told, what: `${began} shell ${command} (ran ${ran}, ended ${stamp()})` };
}

const rel = (uri: string) => uri.replace(/^workspace:\//, '');

async function verify(
  world: World,
  history: Map<string, TurnRecord[]>,
  figures: SoakFigures,
  log: (line: string) => void,
): Promise<void> {
  const { body: listed } = await api<{ workspaces: Workspace[] }>(world, '/api/workspaces');
  for (const [repo, records] of history) {
    const name = path.basename(repo);
    const workspace = listed.workspaces.find((w) => w.root === repo);
    if (!workspace) {
      figures.notes.push(`${name}: not registered`);
      figures.lostTurns += records.length;
      continue;
    }
    const prefix = `/api/workspaces/${workspace.id}`;
    const { body: sessions } = await api<{ sessions: Session[] }>(world, `${prefix}/sessions`);
    const turns: Turn[] = [];
    for (const session of sessions.sessions) {
      const { body } = await api<{ turns: Turn[] }>(world, `${prefix}/sessions/${session.sessionId}/turns`);
      turns.push(...body.turns.filter((turn) => turn.kind === 'agent'));
    }
    const byTitle = new Map<string, Turn[]>();
    for (const turn of turns) byTitle.set(turn.title, [...(byTitle.get(turn.title) ?? []), turn]);
    const prompts = new Set(records.map((record) => record.prompt));
    for (const turn of turns)
      if (!prompts.has(turn.title)) {
        figures.strayTurns++;
        figures.notes.push(`${name}: a turn no agent ran: ${turn.title} (${turn.fileCount} files)`);
      }
    // What each record's turns hold, for the one-turn check.
    const held: Set<string>[] = [];
    const told: string[] = [];
    for (const record of records) {
      const paths = new Set<string>();
      const seen: string[] = [];
      for (const turn of byTitle.get(record.prompt) ?? []) {
        const { body } = await api<{ files: FileChange[] }>(world, `${prefix}/turns/${turn.turnId}`);
        for (const file of body.files) {
          paths.add(rel(file.uri));
          if (file.from) paths.add(rel(file.from));
        }
        const commands = turn.execCommands.map((c) => `${c.tool}[${(c.changed ?? []).map(rel).join(' ')}]`);
        seen.push(
          `turn ${turn.turnId} ${turn.status}${turn.interrupted ? ' interrupted' : ''} ${turn.startedAt.slice(11, 23)}-${(turn.endedAt ?? '').slice(11, 23)}: ${commands.join(', ')}`,
        );
      }
      held.push(paths);
      told.push(`\n    agent: ${record.steps.join('\n    agent: ')}\n    recorded: ${seen.join('\n    recorded: ')}`);
    }
    const changedBy = records.map((record) => differing(record.before, record.after));
    // A turn that moved to the other repository is linked to its turn there (docs/api.md, linked turns).
    for (const record of records) {
      if (!record.moved) continue;
      const others = world.repos.filter(
        (other) => other !== repo && history.get(other)!.some((r) => r.prompt === record.prompt),
      );
      const linkedTo = new Set(
        (byTitle.get(record.prompt) ?? []).flatMap((turn) => (turn.linked ?? []).map((l) => l.root)),
      );
      const missing = others.filter((other) => !linkedTo.has(other));
      if (missing.length > 0) {
        figures.unlinked++;
        figures.notes.push(
          `${name}: "${record.prompt}" moved to ${missing.map((m) => path.basename(m)).join(', ')}, but its turn does not link there`,
        );
      }
    }
    for (let k = 0; k < records.length; k++) {
      figures.turns++;
      if (records[k].moved) figures.movedTurns++;
      figures.files += changedBy[k].length;
      const missing = changedBy[k].filter((p) => !held[k].has(p));
      if (missing.length > 0) {
        figures.notInTurn += missing.length;
        figures.notes.push(
          `${name}: "${records[k].prompt}" (${records[k].host}${records[k].told ? ', told' : ''}) changed ${missing.slice(0, 5).join(', ')} but its turn does not hold it${told[k]}`,
        );
      }
      for (let j = 0; j < records.length; j++) {
        if (j === k) continue;
        const stray = changedBy[k].filter((p) => held[j].has(p) && !changedBy[j].includes(p));
        if (stray.length > 0) {
          figures.inTwoTurns += stray.length;
          figures.notes.push(
            `${name}: "${records[k].prompt}"'s ${stray.slice(0, 3).join(', ')} is in "${records[j].prompt}" too${told[k]}${told[j]}`,
          );
        }
      }
    }
    // Undo, newest first: each undo gives back the tree as it was before that turn.
    for (let k = records.length - 1; k >= 0; k--) {
      const record = records[k];
      const mine = (byTitle.get(record.prompt) ?? []).sort((a, b) => b.startedAt.localeCompare(a.startedAt));
      if (mine.length === 0 && changedBy[k].length > 0) {
        figures.lostTurns++;
        figures.notes.push(`${name}: "${record.prompt}" (${record.host}${record.told ? ', told' : ''}) has no turn`);
      }
      for (const turn of mine) {
        const result = await api<{ ok?: boolean; error?: { code?: string } }>(
          world,
          `${prefix}/turns/${turn.turnId}/rollback`,
          // Each repository is checked on its own: its linked turn in the other is undone there, in its order.
          { onlyHere: true },
        );
        if (result.status !== 200 || result.body.ok === false) {
          figures.conflicts++;
          figures.notes.push(
            `${name}: undo of "${record.prompt}" answered ${result.status} ${JSON.stringify(result.body).slice(0, 200)}`,
          );
          await api(world, `${prefix}/turns/${turn.turnId}/rollback`, { force: true, onlyHere: true });
        }
      }
      const left = differing(await snapshot(repo), record.before);
      if (left.length === 0) figures.restoredExact++;
      else {
        figures.notRestored++;
        figures.missedPaths += left.length;
        figures.notes.push(
          `${name}: undo of "${record.prompt}" (${record.host}${record.told ? ', told' : ''}) left ${left.slice(0, 5).join(', ')}${left.length > 5 ? ` and ${left.length - 5} more` : ''}`,
        );
        await putBack(repo, record.before);
      }
    }
    log(`soak: ${name}: ${records.length} turns checked`);
  }
}

/** The service's and hooks' logs, when something was missed, beside the run (they go with the temp folder). */
async function keepLogs(world: World, figures: SoakFigures): Promise<void> {
  if (figures.notRestored + figures.notInTurn + figures.inTwoTurns + figures.lostTurns === 0) return;
  const keep = process.env.TURNBACK_SOAK_KEEP;
  if (!keep) return;
  await mkdir(keep, { recursive: true });
  for (const name of ['service.log', 'hook.log']) {
    const text = await readFile(path.join(world.state, name), 'utf8').catch(() => '');
    await writeFile(path.join(keep, `${figures.seed}-${name}`), text);
  }
}
