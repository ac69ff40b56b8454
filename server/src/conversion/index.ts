/**
 * A file in another format (traceFormats.ts: a Claude Code session, a Codex rollout, a conversation) as Invariant
 * trace files: the traces its conversion gives (the same the rules evaluate, rulesOnTraces/tracesInText.ts), written
 * as one pretty-printed trace (`.trace.json`) or one compact trace per line (`.jsonl`), optionally redacted. `agent-traces convert` and the editor's command both
 * convert through here.
 */
import { convertedFormatNames, isConverted, traceLayoutOfFile } from '../traceFormats';
import { tracesInText } from '../rulesOnTraces/tracesInText';
import { Redactor, type Replacement } from './redact';

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

/** The traces of a file that converts, or why it does not. */
export function convertText(path: string, text: string): Conversion | { reason: string } {
  const layout = traceLayoutOfFile(path, text);
  const conversion: Conversion = { traces: [], skippedLines: [], omittedLines: 0 };
  if (isConverted(layout)) {
    for (const found of tracesInText(text, layout, path)) {
      if (found.problem) return { reason: `it is ${layout.name} that does not convert: ${found.problem.kind === 'not-json' ? found.problem.detail : 'it holds no trace'}` };
      if (!found.converted) continue;
      conversion.traces.push(found.trace as unknown[]);
      conversion.skippedLines.push(...found.converted.skippedLines);
      conversion.omittedLines += found.converted.omittedLines;
    }
  }
  if (conversion.traces.length > 0) return conversion;
  if (isConverted(layout)) return { reason: `it is ${layout.name} that holds no conversation to convert` };
  return { reason: layout ? 'it is already in the Invariant trace format (nothing to convert)' : `it is not a format that converts to a trace (${convertedFormatNames()}, recognised by their content)` };
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
  const traces = form === 'trace' ? conversion.traces.slice(0, 1) : conversion.traces;
  const redactor = redact ? new Redactor(redact.home) : undefined;
  const output = redactor ? traces.map((trace, i) => redactor.redactTrace(trace, i)) : traces;
  const text = form === 'trace' ? `${JSON.stringify(output[0], null, 2)}\n` : output.map((trace) => `${JSON.stringify(trace)}\n`).join('');
  return { text, written: traces.length, replaced: redactor?.replaced ?? [] };
}
