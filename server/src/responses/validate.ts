/**
 * The checks of a Responses document: its JSON, its shape (a request, a response, a list of items), each item's
 * schema, `arguments` that are not a JSON object, the links between calls and outputs (shared with every format,
 * with a did-you-mean when an output names the call's item `id` instead of its `call_id`), and a response that
 * failed or stopped short. At most settings.maxProblems, the most severe kept, in document order.
 */
import type { ServiceContext } from '../common/languageService';
import type { Problem, Severity, Span } from '../common/types';
import { capProblems, sortByPosition, tooManyProblemsMessage } from '../common/capProblems';
import { linkProblems } from '../calls/validate';
import { checkEncodedArguments } from '../calls/arguments';
import { property } from '../json/queries';
import { parseJson } from '../trace/parser';
import { checkItem } from './schema';
import { stringOf } from './itemFacts';
import type { ResponsesModel } from './model';

const code = (name: string) => `responses/${name}`;

export function validate(model: ResponsesModel, context: ServiceContext): Problem[] {
  const problems: Problem[] = [];
  const add = (span: Span, severity: Severity, name: string, message: string, related?: Problem['related'], suggestion?: string) => {
    const problem: Problem = { span, severity, code: name.includes('/') ? name : code(name), message };
    if (related) problem.related = related;
    if (suggestion !== undefined) problem.suggestion = suggestion;
    problems.push(problem);
  };
  for (const error of model.errors) add({ start: error.start, end: Math.max(error.end, error.start) }, 'error', 'syntax', error.message);
  checkShape(model, add);
  const options = { codePrefix: 'responses', unknownKeyHints: context.settings.unknownKeyHints };
  for (const step of model.steps) {
    if (step.list === 'instructions' || step.node.type === 'string') continue;
    checkItem(step.node, options, add);
    for (const call of step.calls) {
      const args = property(step.node, 'arguments')?.value;
      if (call.facts.argsEncoding !== 'json-string' || args?.type !== 'string') continue;
      checkEncodedArguments(model.text, { start: args.start, end: args.end }, args.value, (json) => parseJson(json).errors[0], code('arguments-json'), add);
    }
  }
  linkProblems(model, add);
  checkResponseStatus(model, add);
  const firstLineEnd = Math.max(1, model.text.indexOf('\n'));
  return capProblems(sortByPosition(problems), context.settings.maxProblems, (_omitted, shown, found) => ({
    span: { start: 0, end: Math.min(firstLineEnd, 1) }, severity: 'warning', code: code('too-many-problems'), message: tooManyProblemsMessage(shown, found),
  }));
}

type Add = (span: Span, severity: Severity, name: string, message: string) => void;

function checkShape(model: ResponsesModel, add: Add): void {
  const root = model.root;
  if (!root) return;
  const whole = { start: root.start, end: Math.min(root.end, root.start + 1) };
  if (root.type !== 'object' && root.type !== 'array') {
    add(whole, 'error', 'top-level', 'A Responses file is a request body (with "input"), a response ("object": "response" with "output"), or a list of items');
    return;
  }
  if (root.type !== 'object') return;
  const input = property(root, 'input');
  const output = property(root, 'output');
  if (!input && !output) add(whole, 'error', 'top-level', 'This object has no "input" (a request body) and no "output" (a response): it holds no items');
  if (input?.value && input.value.type !== 'array' && input.value.type !== 'string') {
    add({ start: input.value.start, end: input.value.end }, 'warning', 'wrong-kind', '"input" must be a list of items, or a prompt as a string');
  }
  if (output?.value && output.value.type !== 'array') add({ start: output.value.start, end: output.value.end }, 'warning', 'wrong-kind', '"output" must be a list of items');
  const object = property(root, 'object')?.value;
  if (object?.type === 'string' && object.value !== 'response' && output) {
    add({ start: object.start, end: object.end }, 'warning', 'object', `"object" of a response is "response", not "${object.value}"`);
  }
}

/** A response that failed, stopped short or is still running says so where its status is. */
function checkResponseStatus(model: ResponsesModel, add: Add): void {
  const root = model.root;
  if (root?.type !== 'object' || model.shape === 'request' || model.shape === 'items') return;
  const status = property(root, 'status')?.value;
  const value = stringOf(status);
  if (!status || value === undefined || value === 'completed') return;
  const span = { start: status.start, end: status.end };
  if (value === 'incomplete') {
    const reason = stringOf(property(property(root, 'incomplete_details')?.value, 'reason')?.value);
    add(span, 'warning', 'incomplete', `The response is incomplete${reason ? ` (${reason})` : ''}: its output stops short`);
  } else if (value === 'failed') {
    add(span, 'warning', 'failed', `The response failed${model.response?.error ? `: ${model.response.error}` : ''}`);
  } else if (value === 'in_progress' || value === 'queued') {
    add(span, 'information', 'in-progress', `The response was still ${value === 'queued' ? 'queued' : 'running'} when this was written: its output may be partial`);
  }
}
