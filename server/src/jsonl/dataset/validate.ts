import type { DatasetCarry, EarlierLine, ServiceContext } from '../../common/languageService';
import type { Problem, Span } from '../../common/types';
import { addressPartSpan } from './address';
import { annotationsOf } from './annotations';
import type { LineAnnotations } from './annotationTypes';
import { property } from '../../json/queries';
import type { JsonNode } from '../../json/nodes';
import type { Line, LinesModel } from '../lines';
import { isTraceLine, traceLineProblems } from './traceBridge';
import { spanOf } from '../../common/spans';

/**
 * Invariant Explorer's upload rules for a dataset, reported at the line that breaks them (Explorer stops at
 * the first; we report all), plus the annotations of each annotated line checked against its own trace.
 */
/** The dataset's upload rules, then each trace line checked by the single-trace service. */
export function validateDatasetLines(model: LinesModel, context: ServiceContext, report: (problem: Problem) => boolean): void {
  validateDataset(model, report, context.datasetCarry);
  for (const line of model.contentLines) {
    // A broken line already reports its syntax errors; the trace service would repeat them.
    if (!isTraceLine(line) || line.errors.length > 0) continue;
    for (const problem of traceLineProblems(model, line, context)) report(problem);
  }
}

/** `maxIndexes`: how many indexes are kept for the duplicate check between parts (absent: all). */
export function newDatasetCarry(maxIndexes?: number): DatasetCarry {
  return { contentSeen: false, indexes: new Map(), ...(maxIndexes !== undefined ? { maxIndexes } : {}) };
}

export function validateDataset(model: LinesModel, report: (problem: Problem) => boolean, carry?: DatasetCarry): void {
  let firstContent: Line | undefined;
  let metadataLine: Line | EarlierLine | undefined = carry?.metadataLine;
  let firstTraceLine: Line | EarlierLine | undefined = carry?.firstTraceLine;
  const indexes = new Map<string, { line: Line; node: JsonNode }>();
  const firstUse = (key: string): { number: number; node?: JsonNode } | undefined => {
    const here = indexes.get(key);
    if (here) return { number: here.line.number, node: here.node };
    const number = carry?.indexes.get(key);
    return number === undefined ? undefined : { number };
  };
  try {
    checkLines();
  } finally {
    if (carry) {
      carry.contentSeen ||= firstContent !== undefined;
      carry.metadataLine = metadataLine && earlier(metadataLine);
      carry.firstTraceLine = firstTraceLine && earlier(firstTraceLine);
      for (const [key, first] of indexes) {
        if (carry.maxIndexes === undefined || carry.indexes.size < carry.maxIndexes) carry.indexes.set(key, first.line.number);
        else if (!carry.indexesLeftOut) {
          carry.indexesLeftOut = true;
          report(indexesLeftOut(first.node, carry.maxIndexes));
        }
      }
      const indexed = carry.firstIndexedLine ?? firstIndexedLine(model);
      carry.firstIndexedLine = indexed && earlier(indexed);
    }
  }

  function checkLines(): void {
    for (const line of model.contentLines) {
      if (!firstContent) firstContent = line;
      const root = line.root;
      // A broken line reports its syntax errors only; its partial value would make the other rules guess.
      if (!root || line.errors.length > 0) continue;
      switch (line.kind) {
        case 'metadata': {
          const key = property(root, 'metadata')!;
          const keySpan = { start: key.keyStart, end: key.keyEnd };
          if (metadataLine) {
            const first = 'root' in metadataLine ? property(metadataLine.root, 'metadata')! : undefined;
            if (!report({
              span: keySpan, severity: 'error', code: 'jsonl/metadata-repeated',
              message: `The metadata row can appear at most once in the file (it is already on line ${metadataLine.number + 1}).`,
              ...(first ? { related: [{ span: { start: first.keyStart, end: first.keyEnd }, message: 'The first metadata row' }] } : {}),
            })) return;
          } else {
            metadataLine = line;
            if ((line !== firstContent || carry?.contentSeen) && !report({
              span: keySpan, severity: 'error', code: 'jsonl/metadata-not-first',
              message: `The metadata row must be the first row in the file (it is on line ${line.number + 1}).`,
            })) return;
          }
          break;
        }
        case 'raw':
        case 'annotated': {
          if (!firstTraceLine) firstTraceLine = line;
          else if (firstTraceLine.kind !== line.kind && !report(mixedKinds(line, firstTraceLine))) return;
          if (line.kind === 'annotated' && !checkAnnotatedLine(model, line, report)) return;
          break;
        }
        case 'agentguard':
        case 'other':
          if (!report({
            span: headSpan(root), severity: 'error', code: 'jsonl/line-kind',
            message: line.kind === 'agentguard'
              ? 'This line is an agentguard entry, but the file is an Invariant dataset: a line must be a trace (an event list or an object with "messages") or the metadata row.'
              : 'This line is neither a trace (an event list, or an object with "messages") nor the dataset\'s metadata row {"metadata": {...}}.',
          })) return;
          break;
      }
    }
  }

  function checkAnnotatedLine(model: LinesModel, line: Line, report: (problem: Problem) => boolean): boolean {
    const root = line.root!;
    const index = property(root, 'index');
    if (index?.value) {
      const value = index.value;
      if (value.type !== 'number' || !/^-?\d+$/.test(value.raw)) {
        const shown = model.text.slice(value.start, value.end);
        if (!report({ span: spanOf(value), severity: 'error', code: 'jsonl/index-type', message: `Invalid index found: ${shown} in the file. Index must be an integer.` })) return false;
      } else {
        const key = BigInt(value.raw).toString();
        const first = firstUse(key);
        if (first) {
          const firstNode = first.node;
          if (!report({
            span: spanOf(value), severity: 'error', code: 'jsonl/index-duplicate',
            message: `Duplicate index found: ${value.raw} in the file (first used on line ${first.number + 1}).`,
            ...(firstNode ? { related: [{ span: spanOf(firstNode), message: `Index ${firstNode.type === 'number' ? firstNode.raw : key} is first used here` }] } : {}),
          })) return false;
        } else indexes.set(key, { line, node: value });
      }
    }
    if (!checkAnnotations(model, line, report)) return false;
    if (!index?.value) {
      const indexed = carry?.firstIndexedLine ?? firstIndexedLine(model);
      // Looked up only here: on a node read lazily, finding "messages" reads the whole trace.
      if (indexed && !report(inconsistentIndex(property(root, 'messages')!, indexed))) return false;
    }
    return true;
  }
}

function indexesLeftOut(node: JsonNode, max: number): Problem {
  return {
    span: spanOf(node), severity: 'information', code: 'jsonl/too-many-indexes',
    message: `The first ${max.toLocaleString('en-US')} indexes of the file are remembered, not this one nor those after it: a later line that repeats one of them is reported only when both lines are read together (at most ${max.toLocaleString('en-US')} indexes are kept: setting --max-indexes).`,
  };
}

/** The first annotated line carrying an index anywhere in the file. */
function firstIndexedLine(model: LinesModel): Line | undefined {
  let cached = indexedLineCache.get(model);
  if (cached === undefined) {
    cached = model.contentLines.find((candidate) => candidate.kind === 'annotated' && property(candidate.root, 'index')?.value) ?? null;
    indexedLineCache.set(model, cached);
  }
  return cached ?? undefined;
}

const indexedLineCache = new WeakMap<LinesModel, Line | null>();

function inconsistentIndex(messagesKey: { keyStart: number; keyEnd: number }, indexed: Line | EarlierLine): Problem {
  const indexProperty = 'root' in indexed ? property(indexed.root, 'index')! : undefined;
  return {
    span: { start: messagesKey.keyStart, end: messagesKey.keyEnd },
    severity: 'error',
    code: 'jsonl/index-inconsistent',
    message: `The 'index' key is inconsistently present — found in some traces (line ${indexed.number + 1}) but missing in this one.`,
    ...(indexProperty ? { related: [{ span: { start: indexProperty.keyStart, end: indexProperty.keyEnd }, message: 'A trace with an index' }] } : {}),
  };
}

function mixedKinds(line: Line, first: Line | EarlierLine): Problem {
  const describe = (l: Line | EarlierLine): string => (l.kind === 'raw' ? 'a raw event list' : 'an annotated event list');
  return {
    span: headSpan(line.root!),
    severity: 'error',
    code: 'jsonl/mixed-kinds',
    message: `The file cannot contain both raw event lists and annotated event lists: this line is ${describe(line)}, line ${first.number + 1} is ${describe(first)}.`,
    ...('root' in first ? { related: [{ span: headSpan(first.root!), message: `Line ${first.number + 1} sets the file's kind` }] } : {}),
  };
}

function earlier(line: Line | EarlierLine): EarlierLine {
  return { number: line.number, kind: line.kind };
}

function checkAnnotations(model: LinesModel, line: Line, report: (problem: Problem) => boolean): boolean {
  for (const problem of line.annotationProblems ?? annotationProblems(model.text, annotationsOf(model, line))) if (!report(problem)) return false;
  return true;
}

/**
 * The problems of an annotated line's annotations (they depend on that line alone): found when the line is parsed
 * and kept with it, so a check after an edit elsewhere does not resolve every line's addresses again.
 */
export function annotationProblems(text: string, annotations: LineAnnotations): Problem[] {
  if (annotations.notAList) {
    return [{
      span: spanOf(annotations.notAList), severity: 'error', code: 'jsonl/annotation-invalid',
      message: 'Failed to parse annotation: "annotations" must be a list of {"content", "address"} objects.',
    }];
  }
  const problems: Problem[] = [];
  for (const annotation of annotations.items) {
    if (annotation.invalid) {
      const target = annotation.node.type === 'object' ? { start: annotation.node.start, end: annotation.node.start + 1 } : spanOf(annotation.node);
      problems.push({ span: target, severity: 'error', code: 'jsonl/annotation-invalid', message: annotation.invalid });
      continue;
    }
    const resolution = annotation.resolution;
    if (resolution && !resolution.ok && annotation.address) {
      const part = addressPartSpan(text, annotation.address, resolution.start, resolution.end);
      problems.push({ span: part, severity: 'error', code: resolution.code, message: resolution.message });
    }
  }
  return problems;
}

/** Where a line-level problem is shown: the first key of an object, the bracket of a list, a scalar whole. */
export function headSpan(root: JsonNode): Span {
  if (root.type === 'object') {
    const first = root.properties[0];
    return first ? { start: first.keyStart, end: first.keyEnd } : { start: root.start, end: root.end };
  }
  if (root.type === 'array') return { start: root.start, end: root.start + 1 };
  return { start: root.start, end: root.end };
}
