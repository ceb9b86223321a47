// `GET /api/settings/person-budget` and `POST /api/settings/person-budget {bytes}`: the person's
// budget over all the service's workspaces (docs/api.md "Store budget"), console token only. The
// service hands its keeper in; a server without one (one engine) has no such route.
import type { PersonBudget } from '../../protocol.js';
import { HttpError } from '../errors.js';
import { objectBody } from '../validate.js';

export const PERSON_BUDGET_PATH = '/api/settings/person-budget';

/** What the route reads and sets (the service's PersonBudgetKeeper). */
export interface PersonBudgetControl {
  status(): PersonBudget;
  set(bytes: number | null): Promise<PersonBudget>;
}

/** `{bytes}`: a positive whole number of bytes, or null to clear the setting. */
export function personBudgetBytes(body: unknown): number | null {
  const { bytes } = objectBody(body);
  if (bytes === null) return null;
  if (typeof bytes === 'number' && Number.isSafeInteger(bytes) && bytes > 0) return bytes;
  throw new HttpError(
    'BAD_REQUEST',
    'bytes must be a positive whole number of bytes, or null for none (the service flag --person-budget, if given)',
  );
}
