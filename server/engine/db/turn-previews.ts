// Schema 12 → 13: a turn's preview (the paths its listing names) is read from its changes
// (Entries.previewOf), no longer kept a second time in `turns`: every file path the commit
// changed, as JSON, 31 of the 80 KiB of turn rows on the commander.js history, and a whole
// second list of paths for a turn of thousands of files. Dropping the column rewrites the table
// inside the migration's transaction: the store is wholly in one form or the other.
export const DROP_TURN_PREVIEWS = `
  ALTER TABLE turns DROP COLUMN preview;
`;
