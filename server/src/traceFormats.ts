/**
 * How a file holds traces, per format: the one place that says which files the rules, `agent-traces convert`,
 * `check`, `eval`, `compare`, `test` and the rule files' workspace lenses read as traces, and how each becomes
 * Invariant events. An Invariant trace file is one trace as it is, an Invariant dataset one per line; every other
 * format is a `TraceFormat` of the table below, whose conversion gives events with source spans (a violation lands on
 * the original file's characters).
 *
 * A new format plugs in with one entry: `holds` recognises its files (by the language languages.ts gives them and
 * their text), `traces` converts a file to its traces (one, or one per sample or conversation it holds).
 */
import type { ConvertedTrace } from './calls/sourcedEvents';
import { conversationTracesOfText } from './anthropic';
import { convertedEventsOfText, detectJsonLinesFormat, firstLineFormatOf, type FileFormat } from './jsonl';
import { languageForFile } from './languages';
import { responsesTracesOfText } from './responses';
import { inspectTracesOfText } from './inspect';
import { spansTracesOfText } from './otel';

export type { ConvertedTrace } from './calls/sourcedEvents';

export interface TraceFormat {
  /** What a file of the format is, in messages: `a Codex rollout`. */
  readonly name: string;
  /**
   * Whether a file the editor reads as `language` is of this format. `jsonLinesFormat` (the format a JSON Lines file's
   * first line gives it, see detectJsonLinesFormat) is asked for only by a format its language leaves in doubt, and
   * comes from the model read from the file where there is one (an edited big document's text is never joined for it).
   */
  holds(language: string, jsonLinesFormat: () => FileFormat | undefined): boolean;
  /**
   * The file's traces as Invariant events, in the file's order; `path` (a path or URI) may decide how the text is
   * read. A format whose files hold many traces (an Inspect log's samples) converts each when the caller reaches it.
   */
  traces(text: string, path: string): Iterable<ConvertedTrace>;
}

/** A trace file (one trace as it is), a dataset (one trace per line, as it is), or a format converted to events. */
export type TraceLayout = 'trace' | 'dataset' | TraceFormat;

const jsonLinesMember = (member: 'claude-code' | 'codex') => (language: string, jsonLinesFormat: () => FileFormat | undefined) => language === 'agent-trace-jsonl' && jsonLinesFormat() === member;
const convertedLines = (text: string): ConvertedTrace[] => {
  const converted = convertedEventsOfText(text);
  return converted ? [converted] : [];
};

export const traceFormats: readonly TraceFormat[] = [
  { name: 'a Claude Code session', holds: jsonLinesMember('claude-code'), traces: convertedLines },
  { name: 'a Codex rollout', holds: jsonLinesMember('codex'), traces: convertedLines },
  { name: 'an Anthropic Messages conversation', holds: (language) => language === 'agent-trace-anthropic', traces: conversationTracesOfText },
  { name: 'an OpenAI Responses conversation', holds: (language) => language === 'openai-responses', traces: (text) => responsesTracesOfText(text) },
  { name: 'an Inspect AI log', holds: (language) => language === 'agent-trace-inspect', traces: (text) => inspectTracesOfText(text) },
  { name: 'a file of OpenTelemetry spans', holds: (language) => language === 'otel-spans', traces: spansTracesOfText },
];

/** How a document of this language holds traces; undefined when it holds none (a rule file, a manifest). */
export function traceLayout(language: string | undefined, text: string | (() => string)): TraceLayout | undefined {
  return layoutOf(language, () => detectJsonLinesFormat(typeof text === 'string' ? text : text()));
}

/**
 * How a document holds traces, decided from the model its language's service read from it (an edited document's
 * check asks for no text); `text` only for a model that service did not read (a parse that failed).
 */
export function traceLayoutOfModel(language: string | undefined, model: unknown, text: () => string): TraceLayout | undefined {
  return layoutOf(language, () => {
    const format = firstLineFormatOf(model);
    return format === 'unread' ? detectJsonLinesFormat(text()) : format;
  });
}

function layoutOf(language: string | undefined, jsonLinesFormat: () => FileFormat | undefined): TraceLayout | undefined {
  if (language === undefined) return undefined;
  let known: { format: FileFormat | undefined } | undefined;
  const once = () => (known ??= { format: jsonLinesFormat() }).format;
  const format = traceFormats.find((candidate) => candidate.holds(language, once));
  if (format) return format;
  return language === 'agent-trace' ? 'trace' : language === 'agent-trace-jsonl' ? 'dataset' : undefined;
}

/**
 * How a file on disk holds traces, decided by its language as the editor decides it (languageForFile): by its name,
 * and by its content for `.jsonl` and `.json` files that are not `*.trace.*`.
 */
export function traceLayoutOfFile(path: string, text: string): TraceLayout | undefined {
  return traceLayout(languageForFile(path, text), text);
}

/** The formats that convert, for messages: "a Claude Code session, a Codex rollout, …". */
export function convertedFormatNames(): string {
  return traceFormats.map((format) => format.name).join(', ');
}

/**
 * A `.jsonl` file with no line to read (empty, or only blank lines): an empty JSON Lines file holds no trace and
 * nothing to check, whatever format it would have been. Agents leave such files behind (a session started and
 * never written to), so a folder of sessions has them; they are read as holding nothing, not as files of no format.
 */
export function isEmptyJsonLines(path: string, text: string): boolean {
  return path.toLowerCase().endsWith('.jsonl') && text.trim() === '';
}

/** Why a file named to be evaluated is not read as traces. */
export const notTracesReason = 'not a trace file, a dataset or a conversation of a format read here (by its name, and for .jsonl and .json by its content, as the editor decides)';

/** Whether the layout is a format converted to events (not an Invariant trace or dataset as it is). */
export function isConverted(layout: TraceLayout | undefined): layout is TraceFormat {
  return layout !== undefined && layout !== 'trace' && layout !== 'dataset';
}

/** A layout as it crosses to the evaluation worker: a format by its name (its functions do not cross threads). */
export function layoutName(layout: TraceLayout): string {
  return typeof layout === 'string' ? layout : layout.name;
}

/** The layout `layoutName` named. */
export function layoutNamed(name: string): TraceLayout {
  if (name === 'trace' || name === 'dataset') return name;
  const format = traceFormats.find((candidate) => candidate.name === name);
  if (!format) throw new Error(`no trace format is named ${JSON.stringify(name)}`);
  return format;
}
