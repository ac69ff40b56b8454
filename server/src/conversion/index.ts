/**
 * A file in another format (traceFormats.ts: a Claude Code session, a Codex rollout, a conversation) as Invariant
 * trace files: the traces its conversion gives (the same the rules evaluate, rulesOnTraces/tracesInText.ts), written
 * as one pretty-printed trace (`.trace.json`) or one compact trace per line (`.jsonl`), optionally redacted. `agent-traces convert` and the editor's command both
 * convert through here.
 */
import { convertedFormatNames, isConverted, traceLayoutOfFile } from '../traceFormats';
import { tracesInText } from '../rulesOnTraces/tracesInText';
import { Redactor, type Replacement } from './redact';

export type { Redactor } from './redact';

export { describeReplacement, type Replacement } from './redact';

export interface Conversion {
  /** Each trace: its events. */
  traces: unknown[][];
  /** 1-based lines left out (not valid JSON). */
  skippedLines: number[];
  /** Lines past the line limit, not read. */
  omittedLines: number;
}

export type OutputForm = 'trace' | 'lines';

/** A trace of the file, reached after others were written, that does not convert: what was written is dropped. */
export class ConversionFailure extends Error {}

/**
 * A conversion under way: the file's traces converted one at a time as `traces` is read, so that a big file (an
 * Inspect log of many samples, images inline) never holds more than two converted traces at once.
 */
export interface Converting {
  /** The file holds more than one trace (known before any is written: the output's default name depends on it). */
  readonly several: boolean;
  /** Each trace once, in the file's order; throws a ConversionFailure at a trace that does not convert. */
  readonly traces: Generator<unknown[]>;
  /** Traces reached, and lines left out, so far: final once `traces` is done. */
  readonly counts: { traces: number; events: number; firstEvents: number; skippedLines: number[]; omittedLines: number };
}

/** The conversion of a file's traces, started (its first two traces read), or why the file does not convert. */
export function startConversion(path: string, text: string): Converting | { reason: string } {
  const layout = traceLayoutOfFile(path, text);
  if (!isConverted(layout)) {
    return { reason: layout ? 'it is already in the Invariant trace format (nothing to convert)' : `it is not a format that converts to a trace (${convertedFormatNames()}, recognised by their content)` };
  }
  const counts = { traces: 0, events: 0, firstEvents: 0, skippedLines: [] as number[], omittedLines: 0 };
  const found = tracesInText(text, layout, path);
  /** The next trace that converts; a ConversionFailure at one that does not. */
  const next = (): unknown[] | undefined => {
    for (let at = found.next(); !at.done; at = found.next()) {
      const trace = at.value;
      if (trace.problem) throw new ConversionFailure(`it is ${layout.name} that does not convert: ${trace.problem.kind === 'not-json' ? trace.problem.detail : 'it holds no trace'}`);
      if (!trace.converted) continue;
      counts.traces++;
      counts.events += (trace.trace as unknown[]).length;
      if (counts.traces === 1) counts.firstEvents = counts.events;
      counts.skippedLines.push(...trace.converted.skippedLines);
      counts.omittedLines += trace.converted.omittedLines;
      return trace.trace as unknown[];
    }
    return undefined;
  };
  let first: unknown[] | undefined;
  let second: unknown[] | undefined;
  try {
    first = next();
    second = first && next();
  } catch (failure) {
    if (failure instanceof ConversionFailure) return { reason: failure.message };
    throw failure;
  }
  if (!first) return { reason: `it is ${layout.name} that holds no conversation to convert` };
  function* traces(): Generator<unknown[]> {
    yield first!;
    first = undefined;
    if (!second) return;
    yield second;
    second = undefined;
    for (let trace = next(); trace; trace = next()) yield trace;
  }
  return { several: second !== undefined, traces: traces(), counts };
}

/** The traces of a file that converts, all held at once (the editor's command), or why it does not convert. */
export function convertText(path: string, text: string): Conversion | { reason: string } {
  const converting = startConversion(path, text);
  if ('reason' in converting) return converting;
  try {
    const traces = [...converting.traces];
    return { traces, skippedLines: converting.counts.skippedLines, omittedLines: converting.counts.omittedLines };
  } catch (failure) {
    if (failure instanceof ConversionFailure) return { reason: failure.message };
    throw failure;
  }
}

/** The form `--out`'s name asks for: `.jsonl` one trace per line, `.json` one trace; undefined for another name. */
export function formOfOutput(path: string): OutputForm | undefined {
  const name = path.toLowerCase();
  if (name.endsWith('.jsonl')) return 'lines';
  if (name.endsWith('.json')) return 'trace';
  return undefined;
}

/** `<input without its extension>.trace.json`, or `.trace.jsonl` when the input holds several traces. */
export function defaultOutputPath(input: string, traces: number): string {
  const slash = Math.max(input.lastIndexOf('/'), input.lastIndexOf('\\'));
  const dot = input.lastIndexOf('.');
  const stem = dot > slash + 1 ? input.slice(0, dot) : input;
  return `${stem}.trace.${traces > 1 ? 'jsonl' : 'json'}`;
}

export interface Written {
  text: string;
  /** Traces written (a `.trace.json` holds the first only). */
  written: number;
  replaced: Replacement[];
}

/** The output file's text; `home`: the user's home folder, when redacting. */
export function writeTraces(conversion: Conversion, form: OutputForm, redact: { home: string | undefined } | undefined): Written {
  const redactor = redact ? new Redactor(redact.home) : undefined;
  const text = [...outputText(conversion.traces, form, redactor)].join('');
  return { text, written: form === 'trace' ? Math.min(1, conversion.traces.length) : conversion.traces.length, replaced: redactor?.replaced ?? [] };
}

/** A redactor for a conversion written with `--redact`: what it replaced is listed once the output is written. */
export function redactorFor(home: string | undefined): Redactor {
  return new Redactor(home);
}

/**
 * The output file's text in pieces, one trace each, as `traces` gives them: a `.trace.json` the first trace
 * pretty-printed (the others read on, for their count and their problems, and dropped), JSON Lines a compact trace
 * per line.
 */
export function* outputText(traces: Iterable<unknown[]>, form: OutputForm, redactor: Redactor | undefined): Generator<string> {
  let index = 0;
  for (const trace of traces) {
    // Past the first of a .trace.json: read on and dropped, never redacted (its replacements would list what is not written).
    if (form === 'trace' && index > 0) continue;
    const written = redactor ? redactor.redactTrace(trace, index) : trace;
    yield form === 'lines' ? `${JSON.stringify(written)}\n` : `${JSON.stringify(written, null, 2)}\n`;
    index++;
  }
}
