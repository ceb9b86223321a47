// undo, redo, rewind and restore alike: print the preview (what is restored, removed, moved
// back, each conflict and the turn behind it), refuse on a conflict unless --force, ask unless
// --yes, then roll back and print what was done. Exit 0 done, 1 refused or not all restored.
import type { Plan, RollbackResult } from '../../protocol.js';
import { printJson, type CommandContext } from './command.js';
import { CliError, EXIT_DONE, EXIT_REFUSED, EXIT_USAGE } from './errors.js';
import { gitIndexLines, planLines, resultLines, summariseByFolder } from './format.js';
import { pathsOfResult, stageAsTheyAre, stagedAmong } from './git-index.js';
import { paint } from './io.js';
import { displayPath } from './paths.js';
import type { Located } from './turn-ref.js';

export interface ConfirmApply {
  /** `Undo turn #3 "Fix the parser"`, the heading of the preview and the question. */
  heading: string;
  verb: string;
  located: Located;
  plan(): Promise<Plan>;
  apply(): Promise<RollbackResult>;
  yes: boolean;
  force: boolean;
  /** `--git-add`: stage, as they now are, the paths the undo changed that git had staged changes for. */
  gitAdd?: boolean;
}

const summary = (located: Located) => ({
  sessionId: located.session.sessionId,
  turnId: located.turn.turnId,
  number: located.turn.number,
  title: located.turn.title,
});

export async function confirmThenApply(context: CommandContext, step: ConfirmApply): Promise<number> {
  const { io, json } = context;
  const p = paint(io.colour && !json);
  const show = (uri: string) => displayPath(context.ws.workspace.root, io.cwd, uri);
  const turn = summary(step.located);
  const plan = await step.plan();
  const verbose = context.values.verbose === true;
  if (!json) io.out(`${p.bold(step.heading)}\n${summariseByFolder(planLines(plan, p, show), verbose).join('\n')}\n`);
  // A linked turn's plan (the same prompt in another project) is listed under its project.
  for (const linked of json ? [] : (plan.linked ?? [])) {
    const there = (uri: string) => displayPath(linked.root, io.cwd, uri);
    io.out(
      `${p.bold(`With its linked turn in ${linked.root}:`)}\n${summariseByFolder(planLines(linked.plan, p, there), verbose).join('\n')}\n`,
    );
  }
  const conflicts = [...plan.conflicts, ...(plan.linked ?? []).flatMap((linked) => linked.plan.conflicts)];
  const stop = (err: CliError): number => {
    if (json)
      printJson(io, { turn, plan, result: null, error: { code: err.code, message: err.message, ...err.details } });
    else io.err(`turnback: ${err.message}\n`);
    return err.exitCode;
  };
  if (conflicts.length > 0 && !step.force) {
    return stop(
      new CliError(
        `not done: ${conflicts.length} path(s) changed since the turn; --force does it anyway`,
        EXIT_REFUSED,
        'CONFLICT',
        { conflicts },
      ),
    );
  }
  const changes = plan.actions.some((action) => action.action !== 'none') || plan.messages.length > 0;
  if (changes && !step.yes) {
    if (!io.interactive)
      return stop(
        new CliError('not done: confirm with --yes (no terminal to ask on)', EXIT_USAGE, 'CONFIRMATION_NEEDED'),
      );
    const answer = (await io.ask(`${step.verb[0].toUpperCase()}${step.verb.slice(1)}? [y/N] `)).trim().toLowerCase();
    if (answer !== 'y' && answer !== 'yes') return stop(new CliError('not done', EXIT_REFUSED, 'DECLINED'));
  }
  let result: RollbackResult;
  try {
    result = await step.apply();
  } catch (err) {
    if (err instanceof CliError) return stop(err);
    throw err;
  }
  const root = context.ws.workspace.root;
  const staged = await stagedAmong(root, pathsOfResult(result));
  if (step.gitAdd && staged.length > 0) await stageAsTheyAre(root, staged);
  const gitIndex = { staged, added: step.gitAdd === true && staged.length > 0 };
  if (json) printJson(io, { turn, plan, result, ...(staged.length > 0 ? { gitIndex } : {}) });
  else {
    const done = summariseByFolder(resultLines(result, p, show), verbose);
    io.out(
      `${result.ok ? p.green('done') : p.red('not all restored')}${result.rollbackTurnId ? p.dim(` (recorded as ${result.rollbackTurnId}; turnback redo takes it back)`) : ''}\n${done.join('\n')}${done.length ? '\n' : ''}`,
    );
    for (const linked of result.linked ?? []) {
      const there = (uri: string) => displayPath(linked.root, io.cwd, uri);
      const lines = linked.result ? summariseByFolder(resultLines(linked.result, p, there), verbose) : [];
      const state = linked.error
        ? p.red(`not undone: ${linked.error.message}`)
        : linked.result?.ok
          ? p.green('done')
          : p.red('not all restored');
      io.out(
        `${p.bold(`Its linked turn in ${linked.root}:`)} ${state}\n${lines.join('\n')}${lines.length ? '\n' : ''}`,
      );
    }
    if (staged.length > 0) io.out(`${gitIndexLines(gitIndex, p, (name) => show(`workspace:/${name}`)).join('\n')}\n`);
  }
  return result.ok ? EXIT_DONE : EXIT_REFUSED;
}
