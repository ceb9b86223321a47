// What `turnback init <host> [--global] [--remove]` needs of a host: where its hook settings live
// (the project's, or the person's with --global) and how turnback's entries go in and out of
// them, keeping every other setting and hook. A host whose settings are JSON (most) gives a
// merge and a remove of the parsed object (jsonSettings); a host that takes a plugin file
// instead writes that text itself.

export interface SettingsPlace {
  /** The project folder (`--workspace`, default the current folder). */
  workspace: string;
  /** The person's home folder. */
  home: string;
  /** `--global`: the user-level settings. */
  global: boolean;
}

export interface SettingsEdit {
  /** The file's new text; null when it is to be left as it is. */
  text: string | null;
  changed: boolean;
  /** The file is to go (it held turnback's entries alone). */
  deleteFile?: boolean;
}

export interface HostSettingsWriter {
  /** `turnback init <host>`. */
  host: string;
  /** The settings file init writes. */
  settingsFile(place: SettingsPlace): string;
  /** With turnback's hook (`hookCommand`, shell-quoted, absolute) in `current` (null: no file yet). Throws SettingsShapeError. */
  install(current: string | null, hookCommand: string): SettingsEdit;
  /** Without any turnback entry. Throws SettingsShapeError. */
  remove(current: string | null): SettingsEdit;
  /** Lines to tell the person once installed (what to start, what the host asks them to trust). */
  afterInstall?(file: string): string[];
}

export class SettingsShapeError extends Error {
  readonly code = 'BAD_SETTINGS';
}

export interface JsonMerge {
  settings: Record<string, unknown>;
  changed: boolean;
}

/** A writer's install and remove for a JSON settings file, from a merge and a remove of its object. */
export function jsonSettings(
  merge: (existing: unknown, hookCommand: string) => JsonMerge,
  unmerge: (existing: unknown) => JsonMerge,
): Pick<HostSettingsWriter, 'install' | 'remove'> {
  const parse = (current: string | null): unknown =>
    current === null || current.trim() === '' ? {} : JSON.parse(current);
  const edit = ({ settings, changed }: JsonMerge): SettingsEdit => ({
    text: changed ? `${JSON.stringify(settings, null, 2)}\n` : null,
    changed,
  });
  return {
    install: (current, hookCommand) => edit(merge(parse(current), hookCommand)),
    remove: (current) => {
      if (current === null) return { text: null, changed: false };
      const removed = unmerge(parse(current));
      // Nothing but turnback's hooks was in it (init made it): the file goes rather than stays as `{}`.
      const { hooks, ...rest } = removed.settings;
      const empty =
        Object.keys(rest).length === 0 &&
        (hooks === undefined || (typeof hooks === 'object' && hooks !== null && Object.keys(hooks).length === 0));
      return removed.changed && empty ? { text: null, changed: true, deleteFile: true } : edit(removed);
    },
  };
}
