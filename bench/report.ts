// Renders results as a readable table (stdout) or as JSON for machines.
import type { Machine } from './machine.js';
import type { Figure, Results } from './results.js';

export function formatMs(ms: number): string {
  if (ms < 0.001) return `${(ms * 1e6).toFixed(0)} ns`;
  if (ms < 1) return `${(ms * 1000).toPrecision(3)} µs`;
  if (ms < 1000) return `${ms.toPrecision(3)} ms`;
  return `${(ms / 1000).toPrecision(3)} s`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toPrecision(3)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toPrecision(3)} MiB`;
  return `${(bytes / 1024 ** 3).toPrecision(3)} GiB`;
}

function formatValue(figure: Figure, value: number): string {
  return figure.unit === 'ms' ? formatMs(value) : formatBytes(value);
}

export function formatRatio(value: number): string {
  return value >= 100 ? `${value.toFixed(0)}×` : `${value.toPrecision(value < 0.01 ? 1 : 2)}×`;
}

const pad = (text: string, width: number): string => text.length >= width ? text : text + ' '.repeat(width - text.length);
const padLeft = (text: string, width: number): string => text.length >= width ? text : ' '.repeat(width - text.length) + text;

export function renderTable(results: Results, machine: Machine, header: string[]): string {
  const out: string[] = [];
  out.push(`turnback benchmarks — ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.platform}`);
  for (const line of header) out.push(line);
  const labelWidth = Math.max(40, ...results.figures.map((f) => f.label.length + 2));
  for (const section of results.sections) {
    const empty = !results.figures.some((f) => f.section === section.id) && section.notes.length === 0 && section.notMeasured.length === 0;
    if (empty) continue;
    out.push('');
    out.push(`${section.id}. ${section.title}`);
    const figures = results.figures.filter((f) => f.section === section.id);
    if (figures.length > 0) {
      out.push(`   ${pad('', labelWidth)}${padLeft('median', 11)}  ${pad('min–max', 23)}runs`);
    }
    for (const f of figures) {
      const spread = f.runs > 1 ? `${formatValue(f, f.min)} – ${formatValue(f, f.max)}` : '';
      out.push(`   ${pad(f.label, labelWidth)}${padLeft(formatValue(f, f.median), 11)}  ${pad(spread, 23)}${f.runs}`);
    }
    for (const r of results.ratios.filter((x) => x.section === section.id)) {
      const target = r.targetMax === null ? '' : `   target ≤ ${r.targetMax}×  ${r.pass ? 'met' : 'MISSED'}`;
      out.push(`   ratio ${pad(r.label, labelWidth - 6)}${padLeft(formatRatio(r.value), 11)}${target}`);
    }
    for (const note of section.notes) out.push(`   note: ${note}`);
    for (const line of section.notMeasured) out.push(`   not measured: ${line}`);
  }
  const targets = results.ratios.filter((r) => r.targetMax !== null);
  if (targets.length > 0) {
    out.push('');
    out.push(`Targets: ${targets.filter((r) => r.pass).length} of ${targets.length} met`);
    for (const r of targets) {
      out.push(`   ${r.pass ? 'met   ' : 'MISSED'}  ${r.section}. ${r.label}: ${formatRatio(r.value)} (target ≤ ${r.targetMax}×)`);
    }
  }
  return out.join('\n');
}

export function renderJson(results: Results, machine: Machine, meta: Record<string, unknown>): string {
  return JSON.stringify({
    ...meta,
    machine,
    sections: results.sections,
    figures: results.figures,
    ratios: results.ratios,
  }, null, 2);
}

/** A compact Markdown rendering (for README's Performance section). */
export function renderMarkdown(results: Results, machine: Machine, header: string[]): string {
  const out: string[] = [];
  out.push(`Machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB RAM, Node ${machine.node}, ${machine.platform}.`);
  for (const line of header) out.push(`${line}.`);
  for (const section of results.sections) {
    const figures = results.figures.filter((f) => f.section === section.id);
    const ratios = results.ratios.filter((r) => r.section === section.id);
    if (figures.length === 0 && section.notMeasured.length === 0) continue;
    out.push('', `**${section.id}. ${section.title}**`, '');
    if (figures.length > 0) {
      out.push('| | median | min – max | runs |', '|---|---:|---|---:|');
      for (const f of figures) {
        const spread = f.runs > 1 ? `${formatValue(f, f.min)} – ${formatValue(f, f.max)}` : '';
        out.push(`| ${f.label} | ${formatValue(f, f.median)} | ${spread} | ${f.runs} |`);
      }
    }
    if (ratios.length > 0) {
      out.push('');
      for (const r of ratios) {
        const target = r.targetMax === null ? '' : ` (target ≤ ${r.targetMax}×: ${r.pass ? 'met' : '**missed**'})`;
        out.push(`- ${r.label}: ${formatRatio(r.value)}${target}`);
      }
    }
    for (const note of section.notes) out.push(`- ${note}`);
    for (const line of section.notMeasured) out.push(`- not measured: ${line}`);
  }
  return out.join('\n');
}
