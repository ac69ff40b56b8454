/**
 * Markdown for hovers. Text from traces, datasets, logs and rule files is untrusted: a tool output can hold
 * `![x](https://…)` images, links, HTML or a code fence of its own. Every hover builds its Markdown with these
 * helpers so such text always renders as the characters it is.
 */

/** Characters that open or close Markdown inline syntax anywhere on a line: code, emphasis, links, images, HTML, entities. */
const INLINE_SYNTAX = /[\\`*{}[\]()<>!|~&#@]/g;
const LINE_BREAKS_AND_CONTROLS = /[\x00-\x1f\x7f\u2028\u2029]+/g;
/** An underscore that could open or close emphasis (one inside a word, as in `tool_calls`, cannot). */
const EMPHASIS_UNDERSCORE = /(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;
/** Bare URLs and `www.` names, which GitHub-flavoured Markdown turns into links. */
const AUTOLINK = /:(?=\/\/)|(?<=\bwww)\./gi;
/** What starts a list, heading, quote, thematic break or code block at the start of a paragraph. */
const BLOCK_START = /^(\s*)(?:([-+=])|(\d+)([.)]))/;

/**
 * Text shown as text inside a Markdown paragraph: the characters of inline syntax are backslash-escaped (no
 * emphasis, links, images, HTML, entities or autolinks), a list or heading marker at its start too, and line breaks
 * and control characters become a space (a new line could start a heading, list, quote or code block).
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(LINE_BREAKS_AND_CONTROLS, ' ')
    .replace(INLINE_SYNTAX, '\\$&')
    .replace(EMPHASIS_UNDERSCORE, '\\_')
    .replace(AUTOLINK, '\\$&')
    .replace(BLOCK_START, (_, space: string, sign?: string, digits?: string, dot?: string) => sign ? `${space}\\${sign}` : `${space}${digits}\\${dot}`);
}

function longestBacktickRun(text: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 96) {
      run++;
      if (run > longest) longest = run;
    } else {
      run = 0;
    }
  }
  return longest;
}

/** Text as an inline code span, delimited by more backticks than any run inside (on one line). */
export function inlineCode(text: string): string {
  const flat = text.replace(LINE_BREAKS_AND_CONTROLS, ' ');
  if (flat.length === 0) return '` `';
  const ticks = '`'.repeat(longestBacktickRun(flat) + 1);
  // A span that begins or ends with a backtick or a space needs a space of padding, which CommonMark strips.
  const pad = /^[` ]|[` ]$/.test(flat) ? ' ' : '';
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}

/** Text as a fenced code block whose fence is longer than any backtick run inside, so the text cannot close it. */
export function codeBlock(text: string, language = 'text'): string {
  const ticks = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  const body = text.replace(/\r\n?/g, '\n');
  return `${ticks}${language}\n${body}\n${ticks}`;
}

/** Text as a one-paragraph block quote (e.g. an exception message). */
export function quote(text: string): string {
  return `> ${escapeMarkdown(text)}`;
}
