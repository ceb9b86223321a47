// Renders results as a readable table (stdout) or as JSON for machines.
import type { Machine } from './machine.js';
import type { Figure, Results } from './results.js';

/** Three significant digits, or null when they round up to 1,000 (then the next unit reads better than "1.00e+3"). */
function threeDigits(value: number): string | null {
  const text = value.toPrecision(3);
  return Number(text) >= 1000 ? null : text;
}

export function formatMs(ms: number): string {
  if (ms < 0.001) return `${(ms * 1e6).toFixed(0)} ns`;
  const us = ms < 1 ? threeDigits(ms * 1000) : null;
  if (us !== null) return `${us} µs`;
  const inMs = ms < 1000 ? threeDigits(ms) : null;
  if (inMs !== null) return `${inMs} ms`;
  return `${(ms / 1000).toPrecision(3)} s`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const kib = bytes < 1024 * 1024 ? threeDigits(bytes / 1024) : null;
  if (kib !== null) return `${kib} KiB`;
  const mib = bytes < 1024 ** 3 ? threeDigits(bytes / 1024 / 1024) : null;
  if (mib !== null) return `${mib} MiB`;
  return `${(bytes / 1024 ** 3).toPrecision(3)} GiB`;
}

function formatValue(figure: Figure, value: number): string {
  return figure.unit === 'ms' ? formatMs(value) : formatBytes(value);
}

/** `target`: one more digit where two would round onto the target (1.1× would read as both met and missed). */
export function formatRatio(value: number, target: number | null = null): string {
  if (value >= 100) return `${value.toFixed(0)}×`;
  const short = `${value.toPrecision(value < 0.01 ? 1 : 2)}×`;
  return target !== null && short === `${target.toPrecision(2)}×` ? `${value.toPrecision(3)}×` : short;
}

const pad = (text: string, width: number): string =>
  text.length >= width ? text : text + ' '.repeat(width - text.length);
const padLeft = (text: string, width: number): string =>
  text.length >= width ? text : ' '.repeat(width - text.length) + text;

export function renderTable(results: Results, machine: Machine, header: string[]): string {
  const out: string[] = [];
  out.push(
    `turnback benchmarks — ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.platform}`,
  );
  for (const line of header) out.push(line);
  const labelWidth = Math.max(40, ...results.figures.map((f) => f.label.length + 2));
  for (const section of results.sections) {
    const empty =
      !results.figures.some((f) => f.section === section.id) &&
      section.notes.length === 0 &&
      section.notMeasured.length === 0;
    if (empty) continue;
    out.push('');
    out.push(`${section.id}. ${section.title}`);
    const figures = results.figures.filter((f) => f.section === section.id);
    if (figures.length > 0) {
      out.push(`   ${pad('', labelWidth)}${padLeft('median', 11)}  ${pad('min–max', 23)}runs`);
    }
    for (const f of figures) {
      const spread = f.runs > 1 && f.min !== f.max ? `${formatValue(f, f.min)} – ${formatValue(f, f.max)}` : '';
      out.push(`   ${pad(f.label, labelWidth)}${padLeft(formatValue(f, f.median), 11)}  ${pad(spread, 23)}${f.runs}`);
    }
    for (const r of results.ratios.filter((x) => x.section === section.id)) {
      const target = r.targetMax === null ? '' : `   target ≤ ${r.targetMax}×  ${r.pass ? 'met' : 'MISSED'}`;
      out.push(`   ratio ${pad(r.label, labelWidth - 6)}${padLeft(formatRatio(r.value, r.targetMax), 11)}${target}`);
    }
    for (const note of section.notes) out.push(`   note: ${note}`);
    for (const line of section.notMeasured) out.push(`   not measured: ${line}`);
  }
  const targets = results.ratios.filter((r) => r.targetMax !== null);
  if (targets.length > 0) {
    out.push('');
    out.push(`Targets: ${targets.filter((r) => r.pass).length} of ${targets.length} met`);
    for (const r of targets) {
      out.push(
        `   ${r.pass ? 'met   ' : 'MISSED'}  ${r.section}. ${r.label}: ${formatRatio(r.value, r.targetMax)} (target ≤ ${r.targetMax}×)`,
      );
    }
  }
  return out.join('\n');
}

export function renderJson(results: Results, machine: Machine, meta: Record<string, unknown>): string {
  return JSON.stringify(
    {
      ...meta,
      machine,
      sections: results.sections,
      figures: results.figures,
      ratios: results.ratios,
    },
    null,
    2,
  );
}

/** Item 10's rows: the real history replayed as turns. */
function historyRows(
  results: Results,
  cell: (id: string) => string,
  ratio: (n: string, d: string) => string,
): string[][] {
  if (!results.get('history.store.turnback')) return [];
  const h = 'commander.js history';
  return [
    [
      `${h}: one turn (flushed before)`,
      cell('history.turn.raw'),
      cell('history.turn.git'),
      cell('history.turn.turnback'),
      `${ratio('history.turn.turnback', 'history.turn.raw')} of raw; ${ratio('history.turn.turnback', 'history.turn.git')} of git`,
    ],
    [
      `${h}: one turn (no flush before)`,
      cell('history.turn.rawNoFlush'),
      '',
      cell('history.turn.turnbackNoFlush'),
      `${ratio('history.turn.turnbackNoFlush', 'history.turn.rawNoFlush')} of raw`,
    ],
    [
      `${h}: store bytes (git packed by git gc)`,
      '',
      cell('history.store.git-packed'),
      cell('history.store.turnback'),
      `${ratio('history.store.turnback', 'history.store.git-packed')}; its contents alone ${cell('history.store.turnback-contents')}`,
    ],
    [
      `${h}: rollback of the newest turn`,
      '',
      cell('history.rollback.git'),
      cell('history.rollback.turnback'),
      ratio('history.rollback.turnback', 'history.rollback.git'),
    ],
    [
      `${h}: rewind to the first turn`,
      '',
      cell('history.rewind.git'),
      cell('history.rewind.turnback'),
      ratio('history.rewind.turnback', 'history.rewind.git'),
    ],
  ];
}

/** The short Markdown summary README's Performance section carries: key figures and every target. */
export function renderMarkdown(results: Results, machine: Machine, header: string[]): string {
  const cell = (id: string): string => {
    const f = results.get(id);
    return f ? formatValue(f, f.median) : '—';
  };
  const ratio = (numerator: string, denominator: string): string => {
    const r = results.ratios.find((x) => x.numerator === numerator && x.denominator === denominator);
    if (!r) return '';
    return r.targetMax === null
      ? formatRatio(r.value)
      : `${formatRatio(r.value, r.targetMax)} (target ≤ ${r.targetMax}×${r.pass ? '' : ', **missed**'})`;
  };
  const rows: string[][] = [
    [
      'One turn writing 10 files (W2)',
      cell('capture.raw'),
      cell('capture.shadow-git'),
      cell('capture.turnback'),
      `${ratio('capture.turnback', 'capture.raw')} of raw; ${ratio('capture.turnback', 'capture.shadow-git')} of git`,
    ],
  ];
  for (const f of results.figures.filter((x) => x.id.startsWith('rollback.') && x.id.endsWith('.raw'))) {
    const size = f.id.split('.')[1];
    rows.push([
      `Rollback of ${size} files (W2)`,
      cell(`rollback.${size}.raw`),
      cell(`rollback.${size}.shadow-git`),
      cell(`rollback.${size}.turnback`),
      `${ratio(`rollback.${size}.turnback`, `rollback.${size}.raw`)} of raw; ${ratio(`rollback.${size}.turnback`, `rollback.${size}.shadow-git`)} of git`,
    ]);
  }
  for (const name of ['W1', 'W2']) {
    if (!results.get(`storage.${name}.git`)) continue;
    rows.push([
      `Store bytes after 20 turns × 10 small edits (${name})`,
      '',
      cell(`storage.${name}.git`),
      cell(`storage.${name}.turnback`),
      ratio(`storage.${name}.turnback`, `storage.${name}.git`),
    ]);
    if (results.get(`storage.${name}.git-packed`)) {
      rows.push([
        `… the same, shadow git packed by git gc (${name})`,
        '',
        cell(`storage.${name}.git-packed`),
        cell(`storage.${name}.turnback`),
        ratio(`storage.${name}.turnback`, `storage.${name}.git-packed`),
      ]);
    }
  }
  rows.push(...historyRows(results, cell, ratio));
  if (results.get('gemini.rollback.gemini'))
    rows.push([
      "Rollback of 1000 files vs Gemini CLI's /restore (W2; its replica in the shadow-git column)",
      '',
      cell('gemini.rollback.gemini'),
      cell('gemini.rollback.turnback'),
      ratio('gemini.rollback.turnback', 'gemini.rollback.gemini'),
    ]);
  if (results.get('gemini.store.gemini'))
    rows.push([
      "Store bytes vs Gemini CLI's shadow repo (W2 indexed; after git gc: " + cell('gemini.store.gemini-packed') + ')',
      '',
      cell('gemini.store.gemini'),
      cell('gemini.store.turnback'),
      ratio('gemini.store.turnback', 'gemini.store.gemini'),
    ]);
  const out: string[] = [];
  out.push('| | raw | shadow-git | turnback | turnback ÷ other |', '|---|---:|---:|---:|---|');
  for (const row of rows) out.push(`| ${row.join(' | ')} |`);
  const scaling = results.ratios.filter((r) => r.section === '3' && r.targetMax !== null);
  const lines: string[] = [];
  if (scaling.length > 0)
    lines.push(
      `- Scaling, 10 → 10,000 turns (per-turn cost): ${scaling.map((r) => `${r.label.split(' per turn')[0]} ${formatRatio(r.value)}${r.pass ? '' : ' (**missed** ≤ 1.5×)'}`).join(', ')}; ` +
        `listSessions ${cell('scaling.sessions.1')} with 1 session, ${cell('scaling.sessions.many')} with 1,000.`,
    );
  if (results.get('coldOpen.open'))
    lines.push(
      `- Cold open of a 10,000-turn store: ${cell('coldOpen.open')}; with the first listSessions and listTurns page ${cell('coldOpen.firstPage')}.`,
    );
  if (results.get('rss.rollback.peak'))
    lines.push(
      `- Peak memory, 1,000-file rollback: heap + buffers grew ${cell('rss.rollback.live')} (garbage included); the bench process peaked at ${cell('rss.rollback.peak')} RSS.`,
    );
  if (results.get('rss.capture.growth'))
    lines.push(
      `- Peak memory, turn writing one 50 MB file (W3): RSS ${cell('rss.capture.growth')} above the process before it (the new 50 MB were already in memory), peak ${cell('rss.capture.peak')}; ${cell('rss.capture.time')} vs ${cell('rss.capture.raw')} for a raw durable write.`,
    );
  const long = results.figures.find(
    (f) => f.id.startsWith('console.') && f.id.endsWith('.ready') && !f.id.startsWith('console.50.'),
  );
  if (results.get('console.50.ready') && long)
    lines.push(
      `- Console in Chromium, navigation to a timeline rendered and scrollable: ${cell('console.50.ready')} for 50 turns, ${formatValue(long, long.median)} for ${long.id.split('.')[1]}.`,
    );
  if (results.get('hook.median'))
    lines.push(
      `- Claude Code hook per call: median ${cell('hook.median')}, p95 ${cell('hook.p95')} (bare Node startup here: ${cell('hook.node')}).`,
    );
  for (const section of results.sections)
    for (const line of section.notMeasured) lines.push(`- Not measured (${section.title}): ${line}`);
  const targets = results.ratios.filter((r) => r.targetMax !== null);
  return [
    `Measured on ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB RAM, Node ${machine.node} (${machine.platform}); ${header.join('; ')}.`,
    '',
    ...out,
    '',
    ...lines,
    `- Targets met: ${targets.filter((r) => r.pass).length} of ${targets.length}.`,
  ].join('\n');
}
