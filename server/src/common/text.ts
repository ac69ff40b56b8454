/** Text cut to at most `max` characters, an ellipsis standing for what was cut. */
export function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, Math.max(1, max - 1))}…` : text;
}

/** A count as messages write it: 1,234,567. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** What the server's log says of an error: its stack when it has one. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.stack ?? error.message : String(error);
}
