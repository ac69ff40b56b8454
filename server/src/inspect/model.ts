/**
 * Reads an Inspect AI log: the log's own facts and the list of its samples, nothing further. JSON's fast reader
 * checks the whole text once (a big log in the editor in slices, one sample per step, while other requests are
 * answered) but builds the samples only as lazy containers, so a 100 MB log with images inline costs its list of
 * samples; a sample's messages are read into a trace (sample.ts) the first time a feature needs that sample, and kept
 * with the model's version.
 */
import type { DocumentInput } from '../common/languageService';
import { itemAt } from '../common/spans';
import type { JsonNode } from '../json/nodes';
import type { ParsedValue } from '../json/nodes';
import { parseJsonDocument, parseJsonDocumentInSteps } from '../json/readJson';
import { checkBudget } from '../common/budget';
import { runStepsInSlices } from '../common/steps';
import { numberValue, property, propertyValue, stringValue } from '../json/queries';
import { readSampleTrace } from './sample';
import type { InspectModel, LogFacts, SampleEntry, SampleTrace } from './types';

export type { InspectModel, SampleTrace } from './types';

/** Outline entries when the caller sets none (the editor passes agentTraces.jsonl.maxOutlineEntries). */
const defaultMaxOutlineEntries = 5000;

const words = {
  unit: 'log',
  oneValue: 'an Inspect log holds one JSON object',
  expectedValueHint: ' (an evaluation log)',
  commentsWhere: 'in JSON',
};

export function parseInspectLog(doc: DocumentInput): InspectModel {
  return modelOf(doc, parseJsonDocument(doc.text, words, doc.budget));
}

/** The same model, the text checked in slices of about `sliceMs` (one sample per step), each ending with `pause()`. */
export async function parseInspectLogInSlices(doc: DocumentInput, pause: () => Promise<void>, sliceMs: number): Promise<InspectModel> {
  const steps = parseJsonDocumentInSteps(doc.text, words, doc.budget, sliceMs);
  return modelOf(doc, await runStepsInSlices(steps, pause, sliceMs, () => checkBudget(doc.budget)));
}

function modelOf(doc: DocumentInput, { root, errors }: ParsedValue): InspectModel {
  const samplesList = propertyValue(root, 'samples');
  const samples: SampleEntry[] = [];
  if (samplesList?.type === 'array') {
    samplesList.items.forEach((node, index) => samples.push(sampleEntry(node, index)));
  }
  return {
    uri: doc.uri, version: doc.version, text: doc.text, root, errors, log: logFacts(root), samples, traces: new Map(),
    maxOutlineEntries: doc.maxOutlineEntries ?? defaultMaxOutlineEntries,
    ...(samplesList?.type === 'array' ? { samplesList } : {}),
  };
}

function sampleEntry(node: JsonNode, index: number): SampleEntry {
  const id = propertyValue(node, 'id');
  const epoch = numberValue(propertyValue(node, 'epoch'));
  const entry: { -readonly [K in keyof SampleEntry]: SampleEntry[K] } = { index, node, span: { start: node.start, end: node.end } };
  if (id?.type === 'string') entry.id = id.value;
  else if (id?.type === 'number') entry.id = id.raw;
  if (epoch !== undefined) entry.epoch = epoch;
  return entry;
}

function logFacts(root: JsonNode | undefined): LogFacts {
  const evalProperty = property(root, 'eval');
  const evalNode = evalProperty?.value;
  const facts: LogFacts = {
    task: stringValue(propertyValue(evalNode, 'task')),
    model: stringValue(propertyValue(evalNode, 'model')),
    status: stringValue(propertyValue(root, 'status')),
    created: stringValue(propertyValue(evalNode, 'created')),
  };
  if (evalProperty?.value) facts.evalProperty = { keyStart: evalProperty.keyStart, keyEnd: evalProperty.keyEnd, start: evalProperty.start, end: evalProperty.end };
  const metrics = resultMetrics(propertyValue(root, 'results'));
  if (metrics) facts.metrics = metrics;
  return facts;
}

/** `accuracy 0.75, stderr 0.043` from the results' scores (each scorer's metrics; the scorer named when several). */
function resultMetrics(results: JsonNode | undefined): string | undefined {
  const scores = propertyValue(results, 'scores');
  if (scores?.type !== 'array') return undefined;
  const parts: string[] = [];
  for (const score of scores.items.slice(0, 8)) {
    const metrics = propertyValue(score, 'metrics');
    if (metrics?.type !== 'object') continue;
    const scorer = scores.items.length > 1 ? `${stringValue(propertyValue(score, 'name')) ?? '?'} ` : '';
    for (const metric of metrics.properties.slice(0, 8)) {
      const value = propertyValue(metric.value, 'value');
      if (value?.type === 'number') parts.push(`${scorer}${metric.key} ${roundMetric(Number(value.raw))}`);
    }
  }
  return parts.length > 0 ? parts.join(', ') : undefined;
}

export function roundMetric(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(3)));
}

/** The sample holding an offset, if any. */
export function sampleAt(model: InspectModel, offset: number): SampleEntry | undefined {
  return itemAt(model.samples, offset, (sample) => sample.span);
}

/** A sample's trace, read on first use. */
export function traceOf(model: InspectModel, sample: SampleEntry): SampleTrace {
  let trace = model.traces.get(sample.index);
  if (!trace) {
    trace = readSampleTrace(model.text, sample);
    model.traces.set(sample.index, trace);
  }
  return trace;
}

/** The trace of the sample holding an offset. */
export function traceAt(model: InspectModel, offset: number): SampleTrace | undefined {
  const sample = sampleAt(model, offset);
  return sample && traceOf(model, sample);
}

/** `sample 3 (epoch 2)`: how messages and the outline name a sample. */
export function sampleName(sample: SampleEntry): string {
  return `sample ${sample.id ?? `#${sample.index + 1}`}${sample.epoch !== undefined ? ` (epoch ${sample.epoch})` : ''}`;
}
