// Cuts text for a one-line view without splitting a character made of two UTF-16 units.

/** `text` if it has at most `limit` code points, else its first `limit` and an ellipsis. */
export function cutText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const points = Array.from(text);
  return points.length <= limit ? text : `${points.slice(0, limit).join('')}…`;
}
