// How the rows of `content_parts` are named (schema 4): part i of content c has id
// c * PARTS_PER_CONTENT + i, so a content's parts are one range of the table's own key.

/** A part's row id is its content's id times this plus its index: one lookup, no extra index. */
export const PARTS_PER_CONTENT = 1 << 16;
