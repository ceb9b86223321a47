// What a benchmark run found: figures, the ratios between them (with their targets), notes,
// and what could not be measured. The table and the JSON are both rendered from this.
import { summarize, type Summary } from './stats.js';

export type Unit = 'ms' | 'bytes';

export interface Figure extends Summary {
  id: string;
  section: string;
  label: string;
  contender: string | null;
  unit: Unit;
}

export interface Ratio {
  id: string;
  section: string;
  label: string;
  numerator: string;
  denominator: string;
  value: number;
  /** The ratio must be at most this; absent when the ratio is shown for information. */
  targetMax: number | null;
  pass: boolean | null;
}

export interface SectionResult {
  id: string;
  title: string;
  notes: string[];
  notMeasured: string[];
}

export class Results {
  readonly sections: SectionResult[] = [];
  readonly figures: Figure[] = [];
  readonly ratios: Ratio[] = [];

  section(id: string, title: string): SectionResult {
    let found = this.sections.find((s) => s.id === id);
    if (!found) {
      found = { id, title, notes: [], notMeasured: [] };
      this.sections.push(found);
    }
    return found;
  }

  figure(
    section: string,
    id: string,
    label: string,
    contender: string | null,
    unit: Unit,
    summary: Summary | number,
  ): Figure {
    const s = typeof summary === 'number' ? summarize([summary]) : summary;
    const figure: Figure = { id, section, label, contender, unit, ...s };
    this.figures.push(figure);
    return figure;
  }

  get(id: string): Figure | undefined {
    return this.figures.find((f) => f.id === id);
  }

  /** Ratio of two figures' medians; skipped silently when either figure is missing. */
  ratio(section: string, label: string, numerator: string, denominator: string, targetMax: number | null = null): void {
    const a = this.get(numerator);
    const b = this.get(denominator);
    if (!a || !b || b.median === 0) return;
    const value = a.median / b.median;
    this.ratios.push({
      id: `${numerator}/${denominator}`,
      section,
      label,
      numerator,
      denominator,
      value,
      targetMax,
      pass: targetMax === null ? null : value <= targetMax,
    });
  }

  /**
   * A ratio measured pair by pair (the median of each pair's numerator ÷ denominator), under
   * the two figures it was drawn from: where load drifts during a run, adjacent pairs compare
   * like with like, and the ratio of two medians would not.
   */
  pairedRatio(
    section: string,
    label: string,
    numerator: string,
    denominator: string,
    ratios: number[],
    targetMax: number | null = null,
  ): void {
    if (!this.get(numerator) || !this.get(denominator) || ratios.length === 0) return;
    const value = summarize(ratios).median;
    this.ratios.push({
      id: `${numerator}/${denominator}`,
      section,
      label,
      numerator,
      denominator,
      value,
      targetMax,
      pass: targetMax === null ? null : value <= targetMax,
    });
  }

  note(section: string, text: string): void {
    const notes = this.sections.find((s) => s.id === section)?.notes;
    if (notes && !notes.includes(text)) notes.push(text);
  }

  notMeasured(section: string, text: string): void {
    this.sections.find((s) => s.id === section)?.notMeasured.push(text);
  }
}
