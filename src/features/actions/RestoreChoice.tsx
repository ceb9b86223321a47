// What a turn's rollback covers, as Claude Code's rewind asks it: the files only, or the files
// and the turn's chat messages.
export function RestoreChoice({
  withChat,
  disabled,
  onChange,
}: {
  withChat: boolean;
  disabled: boolean;
  onChange: (withChat: boolean) => void;
}) {
  return (
    <fieldset className="restore-choice">
      <legend>Restore</legend>
      <label className="checkbox-label">
        <input
          type="radio"
          name="restore-choice"
          checked={!withChat}
          disabled={disabled}
          onChange={() => onChange(false)}
        />
        <span>Files only</span>
      </label>
      <label className="checkbox-label">
        <input
          type="radio"
          name="restore-choice"
          checked={withChat}
          disabled={disabled}
          onChange={() => onChange(true)}
        />
        <span>Files and chat</span>
      </label>
    </fieldset>
  );
}
