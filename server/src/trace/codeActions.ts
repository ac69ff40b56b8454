/**
 * Quick fixes for a trace's problems, each tied to the problem it repairs (found by its code and span), and the
 * arguments refactoring (object ⇄ JSON string). Only fixes that need no choice are marked safe: those are what
 * "fix all", fix-on-save and `agent-traces check --fix` apply. No safe or preferred fix deletes text its problem does
 * not cover, renames a key, or leaves the text unreadable.
 */
import { editedRange, quickfix } from '../common/codeActions';
import { isLineBreak } from '../common/lineIndex';
import { closestNames } from '../common/editDistance';
import type { Budget } from '../common/budget';
import type { TextSource } from '../common/textSource';
import type { CodeFix, Problem, Span, TextEditSpan } from '../common/types';
import {
  callAt, decodeString, eventAt, field, valueSpan, type Field, type JsonValue, type ToolCall, type TraceEvent,
  type TraceModel,
} from './model';
import { jsonSyntaxErrors } from './parser';
import { roleSuggestions } from './roles';
import { callKeys, chunkKeys, eventKeys, functionKeys, imageKeys, rootObjectKeys, topLevelCallKeys } from './schema';

const knownKeys = new Set([...eventKeys, ...topLevelCallKeys, ...callKeys, ...functionKeys, ...chunkKeys, ...imageKeys, ...rootObjectKeys]);

/** Fixes for the given problems (as validate reported them for this model). */
export function codeFixes(model: TraceModel, problems: Problem[]): CodeFix[] {
  const fixes: CodeFix[] = [];
  for (const problem of problems) {
    const make = fixMakers[problem.code];
    if (make) fixes.push(...make(model, problem));
  }
  return fixes;
}

type FixMaker = (model: TraceModel, problem: Problem) => CodeFix[];

const fixMakers: Record<string, FixMaker> = {
  'json/trailing-comma': (_model, problem) => [quickfix(problem, 'Remove the trailing comma', [{ span: problem.span, newText: '' }], true)],
  'json/comment': removeComment,
  'json/syntax': closeComment,
  'trace/tool-calls-type': wrapCallInList,
  'trace/arguments-json': repairArgumentsString,
  'trace/arguments-type': addMissingArguments,
  'trace/unanswered-call': insertOutput,
  'trace/unknown-call-id': pointAtPlausibleCall,
  'trace/duplicate-call-id': freshIdForLaterCall,
  'trace/missing-role': addRole,
  'trace/unknown-role': correctRole,
  'trace/unknown-key': correctKey,
};

/**
 * A comment inside the trace's value is removed without a choice, unless it holds a quoted string: that may be part
 * of the trace a stray comment start swallowed. One before or after the value (notes kept with the file) is removed
 * only when the user picks it.
 */
function removeComment(model: TraceModel, problem: Problem): CodeFix[] {
  const { start, end } = problem.span;
  const root = model.root;
  const inside = root !== null && root.start < start && end <= root.end;
  const quoted = model.text.slice(start, end).includes('"');
  return [quickfix(problem, 'Remove the comment', [{ span: wholeLineIfAlone(model.text, problem.span), newText: '' }], inside && !quoted, true)];
}

/**
 * An unterminated block comment, which swallows the rest of the text: closed at the end of its line, or of the text.
 * The one of them after which the text reads without a syntax error is safe; when both or neither do, a choice.
 */
function closeComment(model: TraceModel, problem: Problem): CodeFix[] {
  const text = model.text;
  const start = problem.span.start;
  if (problem.span.end !== model.end || text.charAt(start) !== '/' || text.charAt(start + 1) !== '*') return [];
  let lineEnd = start + 2;
  while (lineEnd < model.end && !isLineBreak(text.charCodeAt(lineEnd))) lineEnd++;
  let textEnd = model.end;
  while (textEnd > lineEnd && /\s/.test(text.charAt(textEnd - 1))) textEnd--;
  const places = [{ at: lineEnd, title: 'Close the comment at the end of its line' }];
  if (textEnd > lineEnd) places.push({ at: textEnd, title: 'Close the comment at the end of the file' });
  const closings = places.map(({ at }) => [{ span: { start: at, end: at }, newText: ' */' }]);
  const reads = closings.map((edits) => parsesWithEdits(model, edits));
  const unambiguous = reads.filter(Boolean).length === 1;
  return places.map(({ title }, i) => quickfix(problem, title, closings[i], unambiguous && reads[i]));
}

/**
 * Whether the trace with these edits (absolute offsets inside it) applied reads without a syntax error: what the
 * editor's fix-all and preferred fixes must leave. `budget` stops the read (BudgetExceeded).
 */
export function parsesWithEdits(model: TraceModel, edits: readonly TextEditSpan[], budget?: Budget): boolean {
  const edited = editedRange(model.text, model.start, model.end, edits);
  return !jsonSyntaxErrors(edited, 0, edited.length, budget).some((error) => error.code === 'json/syntax');
}

/** A comment alone on its line goes with its line; one after code goes with the spaces before it. */
function wholeLineIfAlone(text: TextSource, span: Span): Span {
  let start = span.start;
  while (start > 0 && (text.charAt(start - 1) === ' ' || text.charAt(start - 1) === '\t')) start--;
  let end = span.end;
  while (end < text.length && (text.charAt(end) === ' ' || text.charAt(end) === '\t')) end++;
  const lineStart = start === 0 || text.charAt(start - 1) === '\n';
  if (lineStart && text.charAt(end) === '\r' && text.charAt(end + 1) === '\n') return { start, end: end + 2 };
  if (lineStart && text.charAt(end) === '\n') return { start, end: end + 1 };
  return { start, end: span.end };
}

function callOfProblem(model: TraceModel, span: Span): ToolCall | undefined {
  const event = eventAt(model, span.start);
  return event ? callAt(event, span.start) : undefined;
}

function wrapCallInList(model: TraceModel, problem: Problem): CodeFix[] {
  const event = eventAt(model, problem.span.start);
  const list = field(event?.fields, 'tool_calls')?.value;
  if (!list || list.kind !== 'object' || list.start !== problem.span.start || list.unclosed) return [];
  return [quickfix(problem, 'Wrap the tool call in a list', [
    { span: { start: list.start, end: list.start }, newText: '[' },
    { span: { start: list.end, end: list.end }, newText: ']' },
  ], true)];
}

/** A JSON string cut short at its end: the closing quote and/or braces that make it one object, when exactly one such ending does. */
function repairArgumentsString(model: TraceModel, problem: Problem): CodeFix[] {
  const call = callOfProblem(model, problem.span);
  const value = call?.argumentsField?.value;
  if (!value || value.kind !== 'string' || !closedString(model.text, value)) return [];
  const decoded = decodeString(model.text, value, Infinity);
  const endings = ['}', '"}', '}}', '"}}', ']}', '"]}'].filter((ending) => encodesObject(decoded + ending));
  if (endings.length !== 1) return [];
  const escaped = JSON.stringify(endings[0]).slice(1, -1);
  return [quickfix(problem, `Close the JSON at the end of the string with ${endings[0]}`, [
    { span: { start: value.end - 1, end: value.end - 1 }, newText: escaped },
  ], true)];
}

function closedString(text: TextSource, value: JsonValue): boolean {
  return value.end - value.start >= 2 && text.charCodeAt(value.end - 1) === 0x22 && text.charCodeAt(value.end - 2) !== 0x5c;
}

function encodesObject(json: string): boolean {
  try {
    const parsed: unknown = JSON.parse(json);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

/** No "arguments" at all: an empty object. */
function addMissingArguments(model: TraceModel, problem: Problem): CodeFix[] {
  const call = callOfProblem(model, problem.span);
  const fn = call?.functionField?.value;
  if (!call || call.argumentsField || !fn || fn.kind !== 'object' || fn.unclosed) return [];
  const last = fn.fields?.[fn.fields.length - 1];
  const at = last?.value ? last.value.end : fn.start + 1;
  return [quickfix(problem, 'Add "arguments": {}', [{ span: { start: at, end: at }, newText: last ? ', "arguments": {}' : '"arguments": {}' }], true)];
}

/** A tool output answering the call, right after the call's event, with the cursor in its content. */
function insertOutput(model: TraceModel, problem: Problem): CodeFix[] {
  const call = callOfProblem(model, problem.span);
  const id = call?.idField?.value;
  if (!call || call.id === undefined || !id || model.eventsValue?.unclosed) return [];
  const event = call.event.value;
  const idLiteral = model.text.slice(id.start, id.end).replace(/[\\$}]/g, (c) => `\\${c}`);
  const output = `{"role": "tool", "tool_call_id": ${idLiteral}, "content": "$0"}`;
  const indent = lineIndent(model.text, event.start);
  const separator = indent === undefined ? ', ' : `,\n${indent}`;
  return [{
    ...quickfix(problem, `Add a tool output answering "${call.id}"`, [{ span: { start: event.end, end: event.end }, newText: separator + output }], false, true),
    snippet: true,
  }];
}

/** The whitespace before an offset on its line, or undefined when something else precedes it there. */
function lineIndent(text: TextSource, offset: number): string | undefined {
  let start = offset;
  while (start > 0 && (text.charAt(start - 1) === ' ' || text.charAt(start - 1) === '\t')) start--;
  if (start > 0 && text.charAt(start - 1) !== '\n') return undefined;
  return text.slice(start, offset);
}

const maxCallChoices = 5;

/** Calls still unanswered before the output, nearest first; those of the tool the output names come first. */
function pointAtPlausibleCall(model: TraceModel, problem: Problem): CodeFix[] {
  const output = eventAt(model, problem.span.start);
  if (!output || output.kind !== 'output') return [];
  const candidates: ToolCall[] = [];
  for (let i = output.index - 1; i >= 0; i--) {
    for (const call of [...model.events[i].calls].reverse()) {
      if (call.id !== undefined && call.idField?.value && !call.outputs.some((o) => o.index < output.index)) candidates.push(call);
    }
  }
  const named = namedTool(output);
  const sameTool = named === undefined ? [] : candidates.filter((call) => call.name === named);
  const ordered = [...sameTool, ...candidates.filter((call) => !sameTool.includes(call))].slice(0, maxCallChoices);
  return ordered.map((call, i) => {
    const literal = model.text.slice(call.idField!.value!.start, call.idField!.value!.end);
    const tool = call.name === undefined ? '' : ` (${call.name})`;
    return quickfix(problem, `Answer the call "${call.id}"${tool} in event #${call.event.index}`, [{ span: problem.span, newText: literal }], false, i === 0);
  });
}

function namedTool(output: TraceEvent): string | undefined {
  for (const key of ['name', 'tool_name']) {
    const value = field(output.fields, key)?.value;
    if (value?.kind === 'string' && value.str !== undefined) return value.str;
  }
  return undefined;
}

/**
 * The later call gets an id no call uses, and the outputs that answer it follow. Safe when every link was clear
 * (a warning); when an output's link was ambiguous (an error), which call it meant is a choice.
 */
function freshIdForLaterCall(model: TraceModel, problem: Problem): CodeFix[] {
  const call = callOfProblem(model, problem.span);
  const id = call?.idField?.value;
  if (!call || call.id === undefined || !id || id.start !== problem.span.start) return [];
  const fresh = freshId(model, call);
  const edits: TextEditSpan[] = [{ span: valueSpan(id), newText: JSON.stringify(fresh) }];
  for (const output of call.outputs) {
    const named = field(output.fields, 'tool_call_id')?.value;
    if (named?.kind === 'string') edits.push({ span: valueSpan(named), newText: JSON.stringify(fresh) });
  }
  const answered = call.outputs.length === 1 ? ' and its output' : call.outputs.length > 1 ? ` and its ${call.outputs.length} outputs` : '';
  return [quickfix(problem, `Give this call the id "${fresh}"${answered}`, edits, problem.severity === 'warning')];
}

function freshId(model: TraceModel, call: ToolCall): string {
  const position = model.callsById.get(call.id!)!.indexOf(call) + 1;
  for (let n = position; ; n++) {
    const candidate = `${call.id}_${n}`;
    if (!model.callsById.has(candidate) && !model.outputsByCallId.has(candidate)) return candidate;
  }
}

/**
 * The role the event's other keys imply (safe), else a choice of roles. A key that may misspell "role" can be
 * renamed, but only when the user picks it: it may be a key of the user's own (`rule`, `route`), whose name and value
 * a rename would lose.
 */
function addRole(model: TraceModel, problem: Problem): CodeFix[] {
  const event = eventAt(model, problem.span.start);
  if (!event || event.value.kind !== 'object' || event.value.start !== problem.span.start) return [];
  if (event.fields.length > 0 && event.fields.every((f) => f.name === 'metadata')) return [];
  const misspelled = event.fields.filter((f) => !knownKeys.has(f.name) && closestNames(f.name, ['role']).length === 1);
  const renames = misspelled.length === 1 ? [renameKey(problem, misspelled[0], 'role')] : [];
  const implied = field(event.fields, 'tool_call_id') ? 'tool' : field(event.fields, 'tool_calls') ? 'assistant' : undefined;
  const roles = implied ? [implied] : ['user', 'assistant', 'system', 'tool'];
  const at = event.value.start + 1;
  const rest = event.fields.length > 0 ? ', ' : '';
  return [...renames, ...roles.map((role) => quickfix(problem, `Add "role": "${role}"`, [{ span: { start: at, end: at }, newText: `"role": "${role}"${rest}` }], implied !== undefined, roles.length === 1))];
}

/** Did you mean: a misspelled role becomes the known one (safe only when exactly one is that close). */
function correctRole(model: TraceModel, problem: Problem): CodeFix[] {
  const event = eventAt(model, problem.span.start);
  const value = field(event?.fields, 'role')?.value;
  if (!event || event.role === undefined || !value || value.start !== problem.span.start) return [];
  const suggestions = roleSuggestions(event.role);
  return suggestions.map((role, i) => quickfix(problem, `Change the role to "${role}"`, [{ span: valueSpan(value), newText: JSON.stringify(role) }], suggestions.length === 1, i === 0));
}

/** Did you mean: an unknown key one or two edits from a key the format defines (a choice: unknown keys are allowed). */
function correctKey(model: TraceModel, problem: Problem): CodeFix[] {
  const key = keyAt(model, problem.span);
  if (!key) return [];
  return closestNames(key.name, knownKeys).map((name) => renameKey(problem, key, name));
}

function keyAt(model: TraceModel, span: Span): Field | undefined {
  const event = eventAt(model, span.start);
  if (!event) return undefined;
  const search = (fields: Field[] | undefined): Field | undefined => {
    for (const f of fields ?? []) {
      if (f.keyStart === span.start) return f;
      if (f.value && f.value.start <= span.start && span.start < f.value.end) {
        const inner = search(f.value.fields) ?? f.value.items?.map((item) => search(item.fields)).find((found) => found);
        if (inner) return inner;
      }
    }
    return undefined;
  };
  return search(event.fields);
}

/** Renaming a key is never safe nor preferred: only the user knows whether the key was meant as the other. */
function renameKey(problem: Problem, key: Field, name: string): CodeFix {
  return quickfix(problem, `Change "${key.name}" to "${name}"`, [{ span: { start: key.keyStart, end: key.keyEnd }, newText: JSON.stringify(name) }], false);
}

/** Refactorings at a span: "arguments" as an object ⇄ as a JSON string encoding it. */
export function refactorings(model: TraceModel, span: Span): CodeFix[] {
  const event = eventAt(model, span.start);
  const call = event && callAt(event, span.start);
  const args = call?.argumentsField;
  const value = args?.value;
  if (!args || !value || span.start < args.keyStart || span.start > value.end) return [];
  const source = model.text.slice(value.start, value.end);
  if (value.kind === 'object' && encodesObject(source)) {
    const compact = JSON.stringify(JSON.parse(source));
    return [{ title: 'Convert "arguments" to a JSON string', kind: 'refactor.rewrite', edits: [{ span: valueSpan(value), newText: JSON.stringify(compact) }], safe: false }];
  }
  if (value.kind === 'string' && closedString(model.text, value)) {
    const decoded = decodeString(model.text, value, Infinity);
    if (!encodesObject(decoded)) return [];
    return [{ title: 'Convert "arguments" to an object', kind: 'refactor.rewrite', edits: [{ span: valueSpan(value), newText: decoded.trim() }], safe: false }];
  }
  return [];
}
