/**
 * The compare view's data for two documents: each side read as a trace (a dataset's chosen trace), cut to the step
 * limit, diffed, and laid out as rows (./view.ts). LSP-free: the server hands in the texts and how offsets become
 * positions.
 */
import type { CompareData, CompareSide, LineRange, TraceChoice } from '../../../shared/protocol';
import { count } from '../common/text';
import type { Span } from '../common/types';
import type { Steps } from '../common/steps';
import { diffTracesInSteps, type TraceInput } from './diff';
import { datasetLineSource, datasetLines, layoutOf, traceSource, type SourceRead, type TextLine, type TraceSource } from './sources';
import { compareRows } from './view';

export interface CompareSideInput {
  uri: string;
  /** The file's path or name, which with the text decides how it is read. */
  path: string;
  text: string;
  /** Why the text could not be read (the side then shows it instead of steps). */
  error?: string;
  label: string;
  /** Datasets: the trace to compare, among the dataset's traces. */
  traceIndex?: number;
  toRange(span: Span): LineRange;
}

export interface CompareSettings {
  /** Steps compared per side; a notice says when a trace has more. */
  maxSteps: number;
  /** The alignment's work limit (see DiffOptions.maxAlignmentWork). */
  maxAlignmentWork: number;
  /** Characters of a field's value shown. */
  maxTextLength: number;
  /** Keys left out of the comparison. */
  ignore: readonly string[];
  compareIds: boolean;
}

/** The setting names the notices point to (the server's; the CLI has options instead). */
export const compareSettingNames = { maxSteps: 'agentTraces.compare.maxSteps', maxAlignmentWork: 'agentTraces.compare.maxAlignmentWork' };

interface ReadSide {
  info: CompareSide;
  source?: TraceSource;
}

/** A comparison made: what the view draws, and how to find where a step or field of it is in its side's text. */
export interface Comparison {
  data: CompareData;
  /** Null when the side could not be read, or has no such step. */
  locate(side: 'left' | 'right', step: number, path?: string): { range: LineRange; selection: LineRange } | null;
}

export function* compareInSteps(left: CompareSideInput, right: CompareSideInput, settings: CompareSettings, id = ''): Steps<Comparison> {
  const sides = [readSide(left), readSide(right)];
  yield;
  const locate: Comparison['locate'] = (which, step, path) => {
    const source = sides[which === 'left' ? 0 : 1].source;
    const input = which === 'left' ? left : right;
    if (!source || !Number.isInteger(step) || step < 0 || step >= source.input.values.length) return null;
    const spans = source.stepSpans(step);
    const selection = path ? source.locate(step, path) : spans.selection;
    return { range: input.toRange(spans.range), selection: input.toRange(selection) };
  };
  const data: CompareData = {
    id,
    left: sides[0].info,
    right: sides[1].info,
    rows: [],
    counts: { same: 0, added: 0, removed: 0, changed: 0, reordered: 0, nowFail: 0, nowSucceed: 0 },
    notices: [],
    compareIds: settings.compareIds,
    limits: { maxTextLength: settings.maxTextLength },
  };
  for (const { info, source } of sides) for (const notice of source?.notices ?? []) data.notices.push(`${info.label}: ${notice}.`);
  const [a, b] = sides.map((side) => side.source);
  if (!a || !b) return { data, locate };
  const inputs = [a, b].map((source, k): TraceInput => {
    const values = source.input.values;
    const info = sides[k].info;
    info.steps = values.length;
    info.compared = Math.min(values.length, settings.maxSteps);
    if (info.compared < info.steps) {
      data.notices.push(`${info.label} has ${count(info.steps)} steps: the first ${count(info.compared)} are compared (${compareSettingNames.maxSteps}).`);
      return { format: source.input.format, values: values.slice(0, info.compared) };
    }
    return source.input;
  });
  const diff = yield* diffTracesInSteps(inputs[0], inputs[1], {
    ignore: settings.ignore, compareIds: settings.compareIds, maxAlignmentWork: settings.maxAlignmentWork,
  });
  for (const { left: l, right: r } of diff.approximated) {
    data.notices.push(`Steps ${l[0]}–${l[1]} and ${r[0]}–${r[1]} differ too much to align within ${compareSettingNames.maxAlignmentWork}: they were paired by position.`);
  }
  data.counts = diff.counts;
  data.rows = yield* compareRows(diff, { maxTextLength: settings.maxTextLength });
  return { data, locate };
}

function readSide(input: CompareSideInput): ReadSide {
  const info: CompareSide = { uri: input.uri, label: input.label, steps: 0, compared: 0, traces: [], traceIndex: 0 };
  let read: SourceRead;
  if (input.error !== undefined) read = { ok: false, reason: input.error };
  else if (layoutOf(input.path, input.text) === 'dataset') {
    const lines = datasetLines(input.text);
    const chosen = input.traceIndex !== undefined && input.traceIndex >= 0 && input.traceIndex < lines.length ? input.traceIndex : 0;
    info.traces = traceChoices(lines, chosen);
    info.traceIndex = chosen;
    if (lines.length === 0) read = { ok: false, reason: 'the dataset holds no trace' };
    else {
      read = datasetLineSource(input.text, lines[chosen]);
      info.label = `${input.label}, line ${lines[chosen].number}`;
    }
  } else read = traceSource(input.path, input.text);
  if (!read.ok) {
    info.error = `${input.label} cannot be compared: ${read.reason}.`;
    return { info };
  }
  return { info, source: read.source };
}

/** Choices listed around the chosen trace (and the first and last), as the preview's picker lists a big dataset's. */
const choicesListed = 500;

function traceChoices(lines: TextLine[], chosen: number): TraceChoice[] {
  const from = Math.max(0, Math.min(chosen - choicesListed / 2, lines.length - choicesListed));
  const to = Math.min(lines.length, from + choicesListed);
  const indexes = [...(from > 0 ? [0] : []), ...Array.from({ length: to - from }, (_, i) => from + i), ...(to < lines.length ? [lines.length - 1] : [])];
  return indexes.map((index) => ({ index, label: `Trace ${index + 1} (line ${lines[index].number})` }));
}
