import { defaultSettings, type ServiceContext } from '../../common/languageService';
import { parseTrace } from '../../trace/model';
import type { Budget } from '../../common/budget';
import { collectProblems } from '../../trace/validate';
import { primeAnnotations } from './annotations';
import { annotationProblems } from './validate';
import { classify, type Line } from '../lines';
import { lineNodeOfReadValue, nodeOfReadValue } from '../../json/views';

/** Trace problems are found once, all of them; validate leaves out the unknown-key hints when they are off. */
const checkEverything: ServiceContext = { settings: { ...defaultSettings, unknownKeyHints: true } };

/**
 * A dataset line is parsed once, by the trace parser, and everything that needs its whole tree is done while the
 * tree is at hand: the line's kind, the trace checks, the annotation addresses. The line then keeps a light tree
 * (containers below the second level are read again only when a feature visits them), so a large dataset costs
 * little memory and its trace models are collected young. Undefined for a broken (or absurdly deep) line: it is
 * read again with every container recorded (json/readJson.ts), for its partial tree.
 */
export function parseDatasetLine(text: string, number: number, start: number, valueStart: number, end: number, budget?: Budget): Line | undefined {
  const trace = parseTrace(text, valueStart, end, budget);
  // The valid-JSON reader reads nesting recursively: it reports what is too deep for it to read.
  if (trace.syntaxErrors.length > 0 || !trace.root || trace.depth > maxTraceDepth) return undefined;
  const whole = nodeOfReadValue(text, trace.root);
  const kind = classify(whole);
  const line: Line = { number, start, end, kind, root: lineNodeOfReadValue(text, trace.root), errors: [] };
  if (kind === 'raw' || kind === 'annotated') {
    line.traceProblems = collectProblems(trace, checkEverything);
    line.calledTools = trace.calls.map((call) => call.name);
  }
  if (kind === 'annotated') {
    primeAnnotations(text, line, whole);
    line.annotationProblems = annotationProblems(text, line.annotations!);
  }
  return line;
}

/** Deeper lines are read again by parseJsonValue too, which says when they are too deep for it to read. */
const maxTraceDepth = 1000;
