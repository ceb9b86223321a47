// The host's step (tool call) a change belongs to, as the engine takes it: checked at its
// boundary, its title cut to a chat line.
import type { StepRef } from '../../protocol.js';
import { BadRequestError } from '../errors.js';

/** A step's title is cut here: it is a line of the chat, not the whole command. */
const TITLE_LIMIT = 120;
const STEP_ID = /^[\x21-\x7e]{1,200}$/;

/** A host's call id the engine takes as a step id. */
export const isStepId = (id: string): boolean => STEP_ID.test(id);

/** A host's step reference, checked at the engine's boundary. */
export function checkStep(step: unknown): StepRef | undefined {
  if (step === undefined || step === null) return undefined;
  const ref = step as Partial<StepRef>;
  if (typeof ref !== 'object' || typeof ref.id !== 'string' || !STEP_ID.test(ref.id)) {
    throw new BadRequestError('step.id must be 1-200 visible ASCII characters', { step });
  }
  if (ref.title !== undefined && typeof ref.title !== 'string')
    throw new BadRequestError('step.title must be a string', { step });
  return { id: ref.id, ...(ref.title ? { title: cut(ref.title) } : {}) };
}

/** A title cut to a chat line's length, never inside a character. */
export function cut(text: string): string {
  const points = [...text];
  return points.length <= TITLE_LIMIT ? text : `${points.slice(0, TITLE_LIMIT - 1).join('')}…`;
}
