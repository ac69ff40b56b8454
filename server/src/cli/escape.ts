/**
 * Control characters (C0, DEL, C1), line and paragraph separators and bidirectional overrides, as the terminal
 * must never receive them from a file's content or name: an ESC or CR could rewrite what was printed before.
 */
const unsafe = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Text for a terminal line: every unsafe character written as an escape. */
export function escapeForTerminal(text: string): string {
  return text.replace(unsafe, (char) => named[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** JSON text with the unsafe characters JSON.stringify leaves as they are (C1, separators, overrides) escaped. */
export function escapeJsonForTerminal(json: string): string {
  return json.replace(/[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
