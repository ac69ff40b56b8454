/**
 * The checks of a file of spans: its JSON (each line's, in the file exporter's form), that it holds spans, the spans'
 * ids (unreadable, missing, repeated), a `parentSpanId` that closes a cycle, an end before the start, JSON inside
 * the message attributes and tool arguments that does not read, a span that ended with an error, and the links
 * between calls and results (shared with every format). At most settings.maxProblems, the most severe kept.
 */
import type { ServiceContext } from '../common/languageService';
import type { Problem, Severity, Span } from '../common/types';
import { capProblems, sortByPosition, tooManyProblemsMessage } from '../common/capProblems';
import { linkProblems } from '../calls/validate';
import { checkEncodedArguments } from '../calls/arguments';
import { parseJson } from '../trace/parser';
import type { JsonNode } from '../json/nodes';
import { property } from '../json/queries';
import { attributeJsonErrors, attributeString } from './attributes';
import { startsAsContainer } from './embedded';
import type { SpanStep, SpansModel } from './types';
import { spanOf } from '../common/spans';

const code = (name: string) => `otel/${name}`;
const messageAttributes = ['gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.system_instructions'];

type Add = (span: Span, severity: Severity, name: string, message: string, related?: Problem['related'], suggestion?: string) => void;

export function validate(model: SpansModel, context: ServiceContext): Problem[] {
  const problems: Problem[] = [];
  const add: Add = (span, severity, name, message, related, suggestion) => {
    const problem: Problem = { span, severity, code: name.includes('/') ? name : code(name), message };
    if (related) problem.related = related;
    if (suggestion !== undefined) problem.suggestion = suggestion;
    problems.push(problem);
  };
  const firstLine = { start: 0, end: Math.max(1, Math.min(model.text.length, model.text.indexOf('\n') === -1 ? model.text.length : model.text.indexOf('\n'))) };
  for (const error of model.errors) add({ start: error.start, end: Math.max(error.end, error.start) }, 'error', 'syntax', error.message);
  if (model.steps.length === 0 && model.errors.length === 0) {
    add(firstLine, 'error', 'no-spans', 'This file holds no spans: OTLP/JSON has "resourceSpans" (one object per line as the collector\'s file exporter writes them), any-agent\'s JSON has "spans"');
  }
  if (model.omittedLines > 0 || model.omittedSpans > 0) {
    const what = model.omittedLines > 0 ? `${model.omittedLines} lines` : `${model.omittedSpans} spans`;
    add(firstLine, 'warning', 'too-many-spans', `Only the first spans are read: ${what} past the limit (agentTraces.jsonl.maxLines) are left out of navigation, the outline, the preview and rules`);
  }
  for (const step of model.steps) checkSpan(model, step, add);
  for (const trace of model.traces) {
    for (const duplicate of trace.duplicates) {
      const first = trace.steps.find((step) => step.spanId?.hex === duplicate.spanId!.hex)!;
      add(spanOf(duplicate.spanId!), 'warning', 'duplicate-span-id', `Span id ${duplicate.spanId!.hex} is already the id of span #${first.index}: children name the first one as their parent`, [
        { span: spanOf(first.spanId!), message: 'the first span with this id' },
      ]);
    }
    linkProblems(trace, add);
  }
  return capProblems(sortByPosition(problems), context.settings.maxProblems, (_omitted, shown, found) => ({
    span: firstLine, severity: 'warning', code: code('too-many-problems'), message: tooManyProblemsMessage(shown, found),
  }));
}

function checkSpan(model: SpansModel, step: SpanStep, add: Add): void {
  // The span's own nodes are read again from the text when visited (see model.ts stepOf): only when an id is missing.
  const otlp = () => model.shape === 'otlp' || property(step.node, 'spanId') !== undefined;
  if (!step.spanId) {
    const idNode = otlp() ? property(step.node, 'spanId')?.value : property(property(step.node, 'context')?.value, 'span_id')?.value;
    if (idNode && idNode.type !== 'null') add(spanOf(idNode), 'warning', 'bad-id', 'This span id does not read as 8 bytes in hex, base64 or an integer: no span can name it as its parent');
    else add(spanOf(step.nameNode ?? { start: step.span.start, end: step.span.start + 1 }), 'warning', 'missing-id', 'This span has no span id: no span can name it as its parent');
  }
  const parentNode = step.parentId ? undefined : otlp() ? property(step.node, 'parentSpanId')?.value : property(property(step.node, 'parent')?.value, 'span_id')?.value;
  if (!step.parentId && parentNode && parentNode.type !== 'null' && !(parentNode.type === 'string' && parentNode.value.trim() === '')) {
    if (!/^0*$/.test(parentNode.type === 'string' ? parentNode.value : parentNode.type === 'number' ? parentNode.raw : 'x')) {
      add(spanOf(parentNode), 'warning', 'bad-id', 'This parent span id does not read as 8 bytes in hex, base64 or an integer: the span is drawn as a root');
    }
  }
  if (step.cycle && step.parentId) {
    add(spanOf(step.parentId), 'warning', 'parent-cycle', 'This parentSpanId closes a cycle of parents (a span cannot run inside itself): the span is drawn as a root');
  }
  if (step.time !== undefined && step.endTime !== undefined && step.endTime < step.time && step.endSpan) {
    add(spanOf(step.endSpan), 'warning', 'end-before-start', 'The span ends before it starts');
  }
  if (step.status === 'error' && step.statusSpan) {
    add(spanOf(step.statusSpan), 'information', 'span-error', `The span ended with an error${step.statusMessage ? `: ${step.statusMessage}` : ''}`);
  }
  for (const key of messageAttributes) checkEncodedJson(model, step, key, add);
  if (step.role === 'model' && attributeString(step.attributes.get('gen_ai.output.type')) === 'json') checkEncodedJson(model, step, 'gen_ai.output', add);
  if (step.role === 'tool') {
    for (const key of ['gen_ai.tool.args', 'gen_ai.tool.call.arguments']) {
      const args = step.attributes.get(key)?.value;
      if (args?.type !== 'string' || args.value.trim() === '') continue;
      checkEncodedArguments(model.text, spanOf(args), args.value, (json) => parseJson(json).errors[0], code('arguments-json'), add);
    }
  }
}

/** JSON written inside an attribute's string that does not read: the problem at the characters where it breaks. */
function checkEncodedJson(model: SpansModel, step: SpanStep, key: string, add: Add): void {
  const attribute = step.attributes.get(key);
  const value: JsonNode | undefined = attribute?.value;
  if (!attribute || value?.type !== 'string' || !startsAsContainer(model.text, value)) return;
  const first = attributeJsonErrors(model.text, attribute)[0];
  if (!first) return;
  add({ start: first.start, end: Math.max(first.end, first.start + 1) }, 'error', 'messages-json', `${key}: the JSON in this string breaks here: ${first.message}`);
}
