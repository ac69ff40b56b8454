/**
 * A big Claude Code session made from a real one: its lines repeated until the text reaches the size asked for,
 * each copy with fresh ids (every uuid, `toolu_`, `msg_`, `req_` and agent id renamed the same way throughout the
 * copy, so its links hold), the first record of each copy chained to the last of the copy before, as one long run.
 */
export function repeatSession(session: string, bytes: number): string {
  const lines = session.split('\n').filter((line) => line.trim() !== '');
  const parts: string[] = [];
  let size = 0;
  let previousLast: string | undefined;
  for (let copy = 0; size < bytes; copy++) {
    const fresh = freshIds(copy);
    for (const line of lines) {
      let renamed = copy === 0 ? line : fresh(line);
      if (copy > 0 && previousLast && renamed.includes('"parentUuid":null')) {
        renamed = renamed.replace('"parentUuid":null', `"parentUuid":"${previousLast}"`);
        previousLast = undefined;
      }
      parts.push(renamed);
      size += renamed.length + 1;
    }
    previousLast = lastUuid(parts);
  }
  return `${parts.join('\n')}\n`;
}

const idPattern = /\b([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-)([0-9a-f]{12})\b|\b(toolu_|msg_|req_)([A-Za-z0-9]{8,})/g;

/** Renames ids for copy `copy`: a uuid keeps its form (its last group carries the copy), other ids a suffix. */
function freshIds(copy: number): (line: string) => string {
  const tag = copy.toString(16).padStart(4, '0');
  return (line) => line.replace(idPattern, (_match, head?: string, tail?: string, prefix?: string, rest?: string) => (head
    ? `${head}${tag}${tail!.slice(4)}`
    : `${prefix}${rest!.slice(0, -Math.min(4, rest!.length - 4))}${tag}`));
}

function lastUuid(lines: string[]): string | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const found = /"uuid":"([^"]+)"/.exec(lines[i]);
    if (found) return found[1];
  }
  return undefined;
}
