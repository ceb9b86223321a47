// `turnback show <turn> [--session S] [--json]`: a turn's files with their changes, its steps (each
// tool call or shell command, by the number `undo --step` takes) and its shell commands.
import { printJson, runCommand, type CommandSpec } from './client/command.js';
import { EXIT_DONE } from './client/errors.js';
import { fileRows, rowCounts, shortTime, turnBadges } from './client/format.js';
import { paint, type Io } from './client/io.js';
import { showTurn } from './client/operations.js';
import { displayPath } from './client/paths.js';

export const SHOW: CommandSpec = {
  name: 'show',
  usage: 'turnback show <turn> [--session S] [--json]',
  options: { session: { type: 'string' } },
  positionals: { min: 1, max: 1 },
  async run({ io, ws, json, values, positionals }) {
    const { session, turn, manifest, steps } = await showTurn(ws, positionals[0], values.session as string | undefined);
    if (json) {
      printJson(io, { session: { sessionId: session.sessionId, platform: session.platform }, ...manifest, steps });
      return EXIT_DONE;
    }
    const p = paint(io.colour);
    const show = (uri: string) => displayPath(ws.workspace.root, io.cwd, uri);
    const badges = turnBadges(turn);
    const lines = [
      `${p.yellow(`turn #${turn.number}`)} ${p.dim(turn.turnId)}${badges.length ? `  ${p.cyan(badges.map((b) => `[${b}]`).join(' '))}` : ''}`,
      `session  ${session.sessionId} (${session.platform})`,
      `time     ${shortTime(turn.startedAt)}${turn.endedAt ? ` - ${shortTime(turn.endedAt)}` : ''}`,
      ...(turn.rollbackOf?.length ? [`undoes   ${turn.rollbackOf.join(' ')}`] : []),
      ...(turn.rolledBackBy ? [`undone   by ${turn.rolledBackBy}`] : []),
      // The same prompt's turns in other projects: undo takes them back too, unless --only-here.
      ...(turn.linked ?? []).map(
        (link) => `also     changed ${link.root} (turn ${link.turnId}; undone with this one unless --only-here)`,
      ),
      '',
      `    ${turn.title || p.dim('(no title)')}`,
      '',
    ];
    const rows = fileRows(manifest.files);
    if (rows.length > 0) lines.push(`  ${rowCounts(rows)}`);
    for (const file of rows) {
      const where = file.from ? `${show(file.from)} -> ${show(file.uri)}` : show(file.uri);
      const counts = file.lines ? `  ${p.green(`+${file.lines.added}`)} ${p.red(`−${file.lines.removed}`)}` : '';
      lines.push(
        `  ${file.change.padEnd(12)} ${where}${counts}${file.skipped ? p.red(`  (not recorded: ${file.skipped})`) : ''}`,
      );
    }
    if (manifest.files.length === 0) lines.push(p.dim('  no files changed'));
    if (steps.length > 0) lines.push('', `  steps ${p.dim('(turnback undo <turn> --step N takes one back)')}`);
    for (const step of steps) {
      lines.push(`  ${p.yellow(String(step.index).padStart(3))}  ${step.title}   ${p.dim(`(${step.kind})`)}`);
      for (const uri of step.paths) lines.push(`         ${show(uri)}`);
    }
    for (const command of turn.execCommands) {
      lines.push('', `  $ ${command.command}   ${p.dim(`(${command.tool})`)}`);
      if (command.changed) for (const uri of command.changed) lines.push(`      changed ${show(uri)}`);
      for (const skipped of command.skipped ?? [])
        lines.push(p.red(`      not recorded ${show(skipped.uri)} (${skipped.reason})`));
    }
    io.out(`${lines.join('\n')}\n`);
    return EXIT_DONE;
  },
};

export function run(args: string[], io?: Io): Promise<number> {
  return runCommand(SHOW, args, io);
}
