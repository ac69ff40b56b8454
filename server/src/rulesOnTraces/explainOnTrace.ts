import type { Span } from '../common/types';
import { escapeMarkdown, inlineCode } from '../common/markdown';
import { fileNameOfUri } from '../common/uri';
import { rulesOf as rulesWithLabels } from '../guardrail/raises';
import {
  buildInput, explainRule, freeVariables, rulesOf, traceElements, type Explanation, type ExplainOptions, type TraceElement,
} from '../guardrail/evaluate/explain';
import { layoutNamed, type TraceLayout } from '../traceFormats';
import { LineIndex } from '../common/lineIndex';
import type { EvaluationJob, ExplainAnswer } from './workerProtocol';
import type { RuleChoice } from '../../../shared/requests';
import type { RuleFile } from './evaluateOnTrace';
import { ErrorPlacer, noTraceMessage, tracesInText, type TraceText } from './tracesInText';

/**
 * "Why not here?" on a trace document: the event or tool call at a place of the document (a trace file, a dataset
 * line, a converted session), the rules that could be explained on it, and the explanation of one
 * (guardrail/evaluate/explain.ts) written as Markdown with links to the rule's lines and the trace's elements.
 */

/** An element of the document's trace, with its characters in the document. */
export interface ElementInDocument extends TraceElement {
  span: Span;
}

export interface ElementAt {
  element?: ElementInDocument;
  /** The trace it is in, when the place is in a trace. */
  trace?: TraceText;
  /** Why there is no element there. */
  problem?: string;
}

/** Where a document's traces are: its text, how it holds them, and its path or URI (which may decide how it is read). */
export interface TraceSource {
  text: string;
  layout: TraceLayout;
  path: string;
}

/** The trace of the document that holds `offset` (for a dataset, the line's), or why there is none. */
function traceAt({ text, layout, path }: TraceSource, offset: number): TraceText | string {
  for (const found of tracesInText(text, layout, path)) {
    if (offset < found.start || offset > found.end) continue;
    if (found.problem) return found.problem.kind === 'not-json' ? `the trace is not valid JSON (${found.problem.detail})` : noTraceMessage;
    return found;
  }
  return layout === 'trace' ? noTraceMessage : 'the cursor is on no trace of the file';
}

/** The document's traces that can be evaluated (a dataset's lines that hold one, one by one). */
export function* tracesOf({ text, layout, path }: TraceSource): Generator<TraceText> {
  for (const found of tracesInText(text, layout, path)) if (!found.problem) yield found;
}

/** The types of the rule's free variables (what an element must be to be asked about), or why there is no such rule. */
export function variableTypes(rule: RuleFile, ruleIndex: number): Set<string> | string {
  const statement = rulesOf(rule.model)[ruleIndex];
  if (!statement) return `the rule file has no rule ${ruleIndex + 1}`;
  return new Set(freeVariables(statement).map((v) => v.type));
}

/** The trace's elements with their characters (the order of the trace: each message before the calls in it). */
export function elementsOf(text: string, trace: TraceText): ElementInDocument[] | string {
  let elements: TraceElement[];
  try {
    elements = traceElements(buildInput(trace.trace));
  } catch (error) {
    return `the trace cannot be read as the analyzer reads it: ${(error as Error).message}`;
  }
  const placer = new ErrorPlacer(text, trace);
  return elements.map((element) => ({ ...element, span: placer.addressSpan(element.address) }));
}

/** The innermost event or tool call whose characters hold `offset` (a call rather than its message). */
export function elementAt(source: TraceSource, offset: number): ElementAt {
  const { text } = source;
  const trace = traceAt(source, offset);
  if (typeof trace === 'string') return { problem: trace };
  const elements = elementsOf(text, trace);
  if (typeof elements === 'string') return { trace, problem: elements };
  let best: ElementInDocument | undefined;
  for (const element of elements) {
    if (element.span.start > offset || offset > element.span.end) continue;
    if (!best || element.span.end - element.span.start <= best.span.end - best.span.start) best = element;
  }
  return best ? { element: best, trace } : { trace, problem: 'the cursor is on no event or tool call of the trace' };
}

/** A rule of a rule file as "why not here?" offers it for an element of type `typeName`. */
export function ruleOffers(rules: RuleFile[], typeName: string): RuleChoice[] {
  return rules.flatMap((file) => {
    const labels = rulesWithLabels(file.model);
    return rulesOf(file.model).map((rule, ruleIndex) => {
      const offer = { ruleUri: file.uri, ruleIndex, line: labels[ruleIndex].line, label: labels[ruleIndex].label };
      const variable = freeVariables(rule).find((v) => v.type === typeName);
      return variable ? { ...offer, variable: variable.name } : { ...offer, reason: `no variable of this rule is a ${typeName}` };
    });
  });
}

/** Where links point: a place in a document, as the host writes it (the editor: `file:///…#L3,5`). */
export type LinkTo = (uri: string, span: Span) => string;

export interface ExplainedHere {
  element: ElementInDocument;
  explanation: Explanation;
  markdown: string;
}

/** Explains rule `ruleIndex` of `rule` on the element at `offset` of the trace document. */
export function explainAt(
  source: TraceSource, traceUri: string, offset: number, rule: RuleFile, ruleIndex: number, linkTo: LinkTo, options: ExplainOptions = {},
): ExplainedHere | string {
  const { text } = source;
  const { element, trace, problem } = elementAt(source, offset);
  if (!element || !trace) return problem ?? 'the cursor is on no event or tool call of the trace';
  const explanation = explainRule(rule.model, trace.trace, ruleIndex, element.address, options);
  const placer = new ErrorPlacer(text, trace);
  const spanOf = (address: string) => placer.addressSpan(address);
  return { element, explanation, markdown: explanationMarkdown(explanation, element, rule, traceUri, spanOf, linkTo) };
}

const maxValuesShown = 8;

/** The explanation as a hover-like panel: the verdict, the bindings, and the first false condition with its values. */
export function explanationMarkdown(
  e: Explanation, element: TraceElement, rule: RuleFile, traceUri: string, spanOf: (address: string) => Span, linkTo: LinkTo,
): string {
  const labels = rulesWithLabels(rule.model);
  const info = labels[e.ruleIndex];
  const ruleLink = info ? `[${escapeMarkdown(`${fileNameOfUri(rule.uri)}:${info.line}`)}](${linkTo(rule.uri, info.span)})` : escapeMarkdown(fileNameOfUri(rule.uri));
  const elementLink = (address: string) => `[${escapeMarkdown(address)}](${linkTo(traceUri, spanOf(address))})`;
  const ruleSource = (start: number, end: number) => `[line ${rule.model.lines.positionAt(start).line + 1}](${linkTo(rule.uri, { start, end })})`;
  const out: string[] = [`**Why not here?** ${ruleLink} ${info ? inlineCode(info.label) : ''} on ${elementLink(element.address)} (${escapeMarkdown(element.label)})`];
  const bindings = (list: Explanation['bindings']) => list.map((b) => `${inlineCode(b.variable)} = ${elementLink(b.address)}`).join(', ');
  if (e.wouldFire) {
    out.push(`**It fires here**, with ${bindings(e.bindings)}.`);
    if (e.problem) out.push(escapeMarkdown(`Besides: ${e.problem}.`));
    return out.join('\n\n');
  }
  if (!e.variable) {
    out.push(`**No answer:** ${escapeMarkdown(e.problem ?? 'the rule has no variable of this element\'s type')}.`);
    return out.join('\n\n');
  }
  const bound = `${inlineCode(e.variable.name)} (${ruleSource(e.variable.start, e.variable.end)}) = this ${escapeMarkdown(e.elementType)}`;
  if (e.problem) {
    out.push(`**Not decided here**, with ${bound}: ${escapeMarkdown(e.problem)}.`);
    if (e.bindings.length > 0) out.push(`The assignment it stopped at: ${bindings(e.bindings)}.`);
    return out.join('\n\n');
  }
  out.push(`**It does not fire here**, with ${bound}.`);
  if (e.assignments === 0) {
    out.push('No assignment of the other variables was tried: the trace has no elements of their types in the order the rule needs.');
    return out.join('\n\n');
  }
  const others = e.bindings.filter((b) => b.variable !== e.variable!.name);
  const closest = e.assignments === 1 ? 'The one assignment tried' : `Of ${e.assignments.toLocaleString('en-US')} assignments tried, the one that got furthest`;
  out.push(`${closest}${others.length > 0 ? ` (${bindings(others)})` : ''}: ${e.held} of ${rulesOf(rule.model)[e.ruleIndex].body.length} conditions held.`);
  const f = e.falseCondition;
  if (!f) return out.join('\n\n');
  const operator = f.part.operator ? ` (${inlineCode(f.part.operator)})` : '';
  out.push(`The first false condition, ${ruleSource(f.part.start, f.part.end)}: ${inlineCode(f.part.source)}${operator}`);
  const values = f.values.slice(0, maxValuesShown).map((v) => `- ${inlineCode(v.source)} was ${inlineCode(v.value)}${v.address ? ` (${elementLink(v.address)})` : ''}`);
  if (f.values.length > maxValuesShown) values.push(`- and ${f.values.length - maxValuesShown} more`);
  if (values.length > 0) out.push(values.join('\n'));
  return out.join('\n\n');
}

/** The evaluation worker's side of "why not here?": the explanation, with links to the trace's and the rule's lines. */
export function explainJob(job: Extract<EvaluationJob, { kind: 'explain' }>, rule: RuleFile): ExplainAnswer {
  const traceLines = new LineIndex(job.text);
  const linkTo: LinkTo = (uri, span) => {
    const lines = uri === job.traceUri ? traceLines : uri === rule.uri ? rule.model.lines : undefined;
    if (!lines) return uri;
    const { line, character } = lines.positionAt(span.start);
    return `${uri}#L${line + 1},${character + 1}`;
  };
  const source = { text: job.text, layout: layoutNamed(job.layout), path: job.path };
  const explained = explainAt(source, job.traceUri, job.offset, rule, job.ruleIndex, linkTo, job.options);
  if (typeof explained === 'string') return { problem: explained };
  return { span: { start: explained.element.span.start, end: explained.element.span.end }, wouldFire: explained.explanation.wouldFire, markdown: explained.markdown };
}
