// A file of OpenTelemetry spans of about 3 MB (the collector's file exporter's JSON Lines: runs of a model span asking
// for a tool, the tool span, a model span repeating the history, one trace) against an Invariant trace file of the
// same size, each opened in the bundled server over stdio as an editor opens it: open → diagnostics published and the
// outline answered. Cold: a fresh server process per open (median of several); warm: the third open of a file in one
// process. The spans are opened with the generic `jsonl` language id other editors send. Ratios are spans / trace, in
// the same run. The runs are generated as test/unit/otel/samples.ts writes them (imitating the corpus's
// otel-any-agent/OPENAI_trace.json run, in OTLP).
// Run: npm run bench -- otel-spans
import { conventionsRun, otlpLine, type SpanSpec } from '../test/unit/otel/samples';
import { generateTrace } from './generateTrace';
import { compareOpens, type Subject } from './openBeside';

/** A run's attributes with its call ids (`call_1`, `call_2`) made the run's own, as every real run's are. */
function ownCallIds(attributes: SpanSpec['attributes'], run: number): SpanSpec['attributes'] {
  const own: SpanSpec['attributes'] = {};
  for (const [key, value] of Object.entries(attributes)) own[key] = typeof value === 'string' ? value.replace(/\bcall_(\d+)\b/g, `call_${run}_$1`) : value;
  return own;
}

/**
 * Batches of one run each, every span id and call id new, all in one trace, until the file has about `targetBytes`
 * (the trace beside it has a call id of its own for every call, too).
 */
function spansFile(targetBytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let run = 0; size < targetBytes; run++) {
    const specs = conventionsRun().map((spec) => ({
      ...spec, id: spec.id + run * 10, parent: spec.parent === undefined ? undefined : spec.parent + run * 10, at: spec.at + run * 2000, attributes: ownCallIds(spec.attributes, run),
    }));
    const line = otlpLine(specs);
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const spans = spansFile(3_000_000);
  const bytes = Buffer.byteLength(spans);
  const subjects: Subject[] = [
    { name: 'OTLP spans (jsonl)', uri: 'file:///bench/spans.jsonl', languageId: 'jsonl', text: spans },
    { name: 'trace file (agent-trace)', uri: 'file:///bench/same-size.trace.json', languageId: 'agent-trace', text: generateTrace(bytes) },
  ];
  console.log(`spans: ${(bytes / 1e6).toFixed(2)} MB, ${spans.split('\n').length - 1} lines of 6 spans; trace: ${(Buffer.byteLength(subjects[1].text) / 1e6).toFixed(2)} MB`);
  await compareOpens(subjects, 5, 'spans / trace of the same size');
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
