/** Text cut to at most `max` characters, an ellipsis standing for what was cut. */
export function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, Math.max(1, max - 1))}…` : text;
}
