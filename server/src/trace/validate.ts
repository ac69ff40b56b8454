import { capProblems, tooManyProblemsMessage } from '../common/capProblems';
import type { ServiceContext } from '../common/languageService';
import type { Problem, Severity, Span } from '../common/types';
import { argumentsSyntaxError } from './parser';
import {
  EVENTS_PER_STEP, decodeString, field, keySpan, valueSpan,
  type Field, type JsonValue, type ToolCall, type TraceEvent, type TraceModel,
} from './model';
import {
  callKeys, chunkKeys, eventKeys, functionKeys, imageKeys, knownChunkTypes, rootObjectKeys, toolsEventKeys,
  topLevelCallKeys,
} from './schema';
import { describeKind } from '../json/tree';
import { checkEncodedArguments } from '../calls/arguments';
import { linkProblems } from '../calls/validate';
import { traceCalls } from './calls';
import { knownRoles, unknownRole } from './roles';
import { keepEventProblems, noProblems, reusedEventProblems } from './reusedChecks';
import { runSteps, runStepsInSlices } from '../common/steps';

/** Every problem of a trace, syntax first-class, capped at settings.maxProblems with a notice. */
export function validate(model: TraceModel, context: ServiceContext): Problem[] {
  return capped(model, context, collectProblems(model, context));
}

function capped(model: TraceModel, context: ServiceContext, problems: Problem[]): Problem[] {
  return capProblems(problems, context.settings.maxProblems, (_omitted, shown, found) => ({
    span: { start: model.start, end: model.start },
    severity: 'information',
    code: 'trace/too-many-problems',
    message: tooManyProblemsMessage(shown, found),
  }));
}

/** The same problems, found in slices of events that each end with `pause()` (a big trace leaves the server free). */
export async function validateInSlices(model: TraceModel, context: ServiceContext, pause: () => Promise<void>, sliceMs: number): Promise<Problem[]> {
  return capped(model, context, await runStepsInSlices(checkSteps(model, context), pause, sliceMs));
}

/** All problems, sorted by position, uncapped. */
export function collectProblems(model: TraceModel, context: ServiceContext): Problem[] {
  return runSteps(checkSteps(model, context));
}


/** Checks the trace, yielding every few hundred events; returns the problems sorted by position. */
function* checkSteps(model: TraceModel, context: ServiceContext): Generator<void, Problem[], void> {
  const problems: Problem[] = [];
  for (const e of model.syntaxErrors) {
    problems.push({ span: { start: e.start, end: e.end }, severity: 'error', code: e.code, message: e.message });
  }
  const add = (span: Span, severity: Severity, code: string, message: string, related?: Problem['related']) => {
    const problem: Problem = { span, severity, code, message };
    if (related) problem.related = related;
    problems.push(problem);
  };
  const hints = context.settings.unknownKeyHints;
  const unknownKeys = (fields: Field[], known: Set<string>, where: Where) => {
    if (!hints) return;
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i];
      if (!known.has(f.name)) add(keySpan(f), 'hint', 'trace/unknown-key', `Unknown key "${f.name}" in ${whereName(where)}; the trace format does not define it`);
    }
  };

  checkTopLevel(model, add, unknownKeys);
  const events = model.events;
  // An event's own problems depend on nothing outside it: after an incremental read, those of the events it did
  // not read again are the previous version's, moved. Links across events are always checked again.
  const reused = reusedEventProblems(model, hints);
  // Kept for the models of documents only (the service's parse sets their uri): the traces of a dataset's lines are
  // never read incrementally, and a weak entry for each of thousands of them would slow every collection.
  const eventProblems: Problem[][] | undefined = model.uri === undefined ? undefined : new Array(events.length);
  for (let i = 0; i < events.length; i++) {
    const kept = reused?.[i];
    if (kept) {
      if (eventProblems) eventProblems[i] = kept;
      for (const problem of kept) problems.push(problem);
      continue;
    }
    const first = problems.length;
    checkEvent(model, events[i], add, unknownKeys);
    if (eventProblems) eventProblems[i] = first === problems.length ? noProblems : problems.slice(first);
    if (i % EVENTS_PER_STEP === EVENTS_PER_STEP - 1) yield;
  }
  if (eventProblems) keepEventProblems(model, hints, eventProblems);
  linkProblems(traceCalls(model), add);
  problems.sort((a, b) => a.span.start - b.span.start);
  return problems;
}

type Add = (span: Span, severity: Severity, code: string, message: string, related?: Problem['related']) => void;
type UnknownKeys = (fields: Field[], known: Set<string>, where: Where) => void;

/** Where unknown keys are, in their hint: an event is named only when one has such a key (most events have none). */
type Where = string | TraceEvent;

function whereName(where: Where): string {
  return typeof where === 'string' ? where : `event #${where.index}`;
}

/** A container's opening bracket, where a problem about the whole container points. */
function openingOf(value: JsonValue): Span {
  return { start: value.start, end: value.start + 1 };
}

function checkTopLevel(model: TraceModel, add: Add, unknownKeys: UnknownKeys): void {
  const root = model.root;
  if (!root || root.kind === 'array' || root.kind === 'invalid') return;
  if (root.kind !== 'object') {
    add(valueSpan(root), 'error', 'trace/top-level',
      `A trace must be a JSON array of events (or an object with a "messages" array), not ${describeKind(root.kind)}`);
    return;
  }
  const messages = field(root.fields, 'messages');
  if (!messages) {
    add({ start: root.start, end: root.start + 1 }, 'error', 'trace/top-level',
      'This object has no "messages": a trace is a JSON array of events, or an object with a "messages" array');
  } else if (messages.value && messages.value.kind !== 'array') {
    add(valueSpan(messages.value), 'error', 'trace/top-level',
      `"messages" must be an array of events, not ${describeKind(messages.value.kind)}`);
  }
  unknownKeys(root.fields ?? [], rootObjectKeys, 'the trace object');
}

function checkEvent(model: TraceModel, event: TraceEvent, add: Add, unknownKeys: UnknownKeys): void {
  const value = event.value;
  if (value.kind !== 'object') {
    if (value.kind !== 'invalid') {
      add(valueSpan(value), 'error', 'trace/event-not-object',
        `Event #${event.index} is ${describeKind(value.kind)}; every event must be a JSON object such as {"role": "user", "content": "…"}`);
    }
    return;
  }
  const fields = event.fields;
  switch (event.kind) {
    case 'invalid': {
      const onlyMetadata = fields.length > 0 && fields.every((f) => f.name === 'metadata');
      add(openingOf(value), 'error', 'trace/missing-role', onlyMetadata
        ? `Event #${event.index} holds only "metadata"; that is allowed only as the first element. Other events need a "role"`
        : missingRoleMessage(event));
      unknownKeys(fields, eventKeys, event);
      return;
    }
    case 'metadata':
      return;
    case 'tools': {
      const tools = field(fields, 'tools')?.value;
      if (tools && tools.kind !== 'array') {
        add(valueSpan(tools), 'error', 'trace/content-type', `"tools" must be a list of tool descriptions, not ${describeKind(tools.kind)}`);
      }
      unknownKeys(fields, toolsEventKeys, event);
      return;
    }
    case 'call':
      checkCall(model, event.calls[0], add, unknownKeys);
      return;
    default:
      break;
  }
  const role = field(fields, 'role');
  if (!role) add(openingOf(value), 'error', 'trace/missing-role', missingRoleMessage(event));
  else if (role.value && role.value.kind !== 'string') {
    add(valueSpan(role.value), 'error', 'trace/role-type',
      `"role" must be a string such as "user", "assistant", "system" or "tool", not ${describeKind(role.value.kind)}`);
  } else if (role.value && event.role !== undefined && !knownRoles.has(event.role)) {
    const unknown = unknownRole(event.role);
    add(valueSpan(role.value), unknown.severity, 'trace/unknown-role', unknown.message);
  }
  const isOutput = event.kind === 'output';
  const content = field(fields, 'content')?.value;
  if (content) checkContent(model, content, isOutput, add, unknownKeys);

  const toolCalls = field(fields, 'tool_calls')?.value;
  if (toolCalls && toolCalls.kind !== 'array' && toolCalls.kind !== 'null' && toolCalls.kind !== 'invalid') {
    add(valueSpan(toolCalls), 'error', 'trace/tool-calls-type', `"tool_calls" must be a list of tool calls (or null), not ${describeKind(toolCalls.kind)}`);
  }
  const items = toolCalls?.items;
  if (items) {
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (item.kind !== 'object' && item.kind !== 'invalid') {
        add(valueSpan(item), 'error', 'trace/tool-calls-type',
          `tool_calls[${i}] is ${describeKind(item.kind)}; each tool call must be an object {"id", "type": "function", "function": {…}}`);
      }
    }
  }
  const calls = event.calls;
  for (let i = 0; i < calls.length; i++) checkCall(model, calls[i], add, unknownKeys);

  const toolCallId = field(fields, 'tool_call_id')?.value;
  if (toolCallId && toolCallId.kind !== 'string' && toolCallId.kind !== 'null' && toolCallId.kind !== 'invalid') {
    add(valueSpan(toolCallId), 'error', 'trace/tool-call-id-type', `"tool_call_id" must be a string naming an earlier tool call's "id", not ${describeKind(toolCallId.kind)}`);
  }
  unknownKeys(fields, eventKeys, event);
}

function missingRoleMessage(event: TraceEvent): string {
  return `Event #${event.index} has no "role": add "role": "user", "assistant", "system" or "tool" (or "type": "function" for a tool call)`;
}

function checkContent(model: TraceModel, content: JsonValue, isOutput: boolean, add: Add, unknownKeys: UnknownKeys): void {
  const kind = content.kind;
  if (kind === 'string' || kind === 'null' || kind === 'invalid' || (isOutput && kind === 'object')) return;
  if (kind !== 'array') {
    add(valueSpan(content), 'error', 'trace/content-type', isOutput
      ? `A tool output's "content" must be a string, a list of chunks or an object, not ${describeKind(kind)}`
      : `"content" must be a string, null or a list of chunks like {"type": "text", "text": "…"}, not ${describeKind(kind)}`);
    return;
  }
  const chunks = content.items ?? [];
  for (let i = 0; i < chunks.length; i++) checkChunk(model, chunks[i], i, add, unknownKeys);
}

function checkChunk(model: TraceModel, chunk: JsonValue, i: number, add: Add, unknownKeys: UnknownKeys): void {
  if (chunk.kind === 'invalid') return;
  if (chunk.kind !== 'object') {
    add(valueSpan(chunk), 'error', 'trace/chunk-invalid',
      `content[${i}] is ${describeKind(chunk.kind)}; a content chunk must be an object like {"type": "text", "text": "…"}`);
    return;
  }
  const fields = chunk.fields ?? [];
  const type = field(fields, 'type');
  unknownKeys(fields, chunkKeys, 'a content chunk');
  if (!type) {
    add(openingOf(chunk), 'error', 'trace/chunk-invalid', 'This content chunk has no "type": use "text" (with "text") or "image_url" (with "image_url": {"url": …})');
    return;
  }
  if (!type.value || type.value.kind !== 'string') {
    if (type.value && type.value.kind !== 'invalid') {
      add(valueSpan(type.value), 'error', 'trace/chunk-invalid', `A chunk's "type" must be a string such as "text" or "image_url", not ${describeKind(type.value.kind)}`);
    }
    return;
  }
  const typeName = decodeString(model.text, type.value, 100);
  if (typeName === 'text') {
    const text = field(fields, 'text');
    if (!text) add(valueSpan(type.value), 'error', 'trace/chunk-invalid', 'A "text" chunk needs a string "text"');
    else if (text.value && text.value.kind !== 'string' && text.value.kind !== 'invalid') {
      add(valueSpan(text.value), 'error', 'trace/chunk-invalid', `A text chunk's "text" must be a string, not ${describeKind(text.value.kind)}`);
    }
  } else if (typeName === 'image_url' || typeName === 'image') {
    const image = field(fields, 'image_url') ?? field(fields, 'image');
    if (!image) {
      add(valueSpan(type.value), 'error', 'trace/chunk-invalid', `An "${typeName}" chunk needs "image_url": {"url": "…"} (or the URL as a string)`);
      return;
    }
    const v = image.value;
    if (!v || v.kind === 'invalid') return;
    if (v.kind === 'string') {
      if (!analyzerReads(fields)) notEvaluable(valueSpan(v), `an image given as a URL string under "${image.name}"`, add);
      return;
    }
    if (v.kind === 'object') {
      unknownKeys(v.fields ?? [], imageKeys, `"${image.name}"`);
      const url = field(v.fields, 'url');
      if (!url) add(keySpan(image), 'error', 'trace/chunk-invalid', `"${image.name}" needs a string "url" (an https: or data: URL)`);
      else if (url.value && url.value.kind !== 'string' && url.value.kind !== 'invalid') {
        add(valueSpan(url.value), 'error', 'trace/chunk-invalid', `"url" must be a string, not ${describeKind(url.value.kind)}`);
      } else if (!analyzerReads(fields)) {
        notEvaluable(keySpan(image), image.name === 'image_url' ? 'an "image_url" object with values other than strings' : 'an image under "image" (it reads "image_url")', add);
      }
      return;
    }
    add(valueSpan(v), 'error', 'trace/chunk-invalid', `"${image.name}" must be {"url": "…"} or a URL string, not ${describeKind(v.kind)}`);
  } else if (!knownChunkTypes.has(typeName)) {
    add(valueSpan(type.value), 'warning', 'trace/chunk-invalid', `Unknown chunk type "${typeName}": the trace format knows "text" and "image_url"`);
  } else if (!analyzerReads(fields)) {
    notEvaluable(valueSpan(type.value), `${/^[aeiou]/i.test(typeName) ? 'an' : 'a'} "${typeName}" chunk without a string "text"`, add);
  }
}

/**
 * Whether the Invariant analyzer reads a chunk (its input builder, as `guardrail/evaluate/input.ts` mirrors it): a
 * string "text", or an "image_url" object whose values are all strings. On any other chunk it fails, so rules are not
 * evaluated on the trace.
 */
function analyzerReads(fields: Field[]): boolean {
  if (field(fields, 'text')?.value?.kind === 'string') return true;
  const image = field(fields, 'image_url')?.value;
  return image?.kind === 'object' && (image.fields ?? []).every((f) => f.value?.kind === 'string');
}

/** A chunk the trace format allows but the analyzer cannot read: said here, so that check and eval never disagree silently. */
function notEvaluable(span: Span, what: string, add: Add): void {
  add(span, 'warning', 'trace/chunk-not-evaluable',
    `Rules cannot be evaluated on this trace: the Invariant analyzer reads text chunks (a string "text") and "image_url" objects, not ${what}; agent-traces eval reports the trace as failed`);
}

function checkCall(model: TraceModel, call: ToolCall, add: Add, unknownKeys: UnknownKeys): void {
  const fields = call.value.fields ?? [];
  const type = field(fields, 'type');
  if (!type) {
    add(openingOf(call.value), 'error', 'trace/call-missing-type', 'This tool call has no "type": add "type": "function"');
  } else if (type.value && type.value.kind !== 'string' && type.value.kind !== 'invalid') {
    add(valueSpan(type.value), 'error', 'trace/call-missing-type', `A tool call's "type" must be the string "function", not ${describeKind(type.value.kind)}`);
  }
  const id = call.idField?.value;
  if (id && id.kind !== 'string' && id.kind !== 'null' && id.kind !== 'invalid') {
    add(valueSpan(id), 'error', 'trace/tool-call-id-type', `A tool call's "id" must be a string, not ${describeKind(id.kind)}`);
  }
  unknownKeys(fields, call.topLevel ? topLevelCallKeys : callKeys, 'this tool call');

  const fn = call.functionField;
  if (!fn) {
    add(openingOf(call.value), 'error', 'trace/call-missing-function', 'This tool call has no "function": add "function": {"name": "…", "arguments": {…}}');
    return;
  }
  const fnValue = fn.value;
  if (!fnValue || fnValue.kind === 'invalid') return;
  if (fnValue.kind !== 'object') {
    add(valueSpan(fnValue), 'error', 'trace/call-missing-function', `"function" must be an object {"name": "…", "arguments": {…}}, not ${describeKind(fnValue.kind)}`);
    return;
  }
  const fnFields = fnValue.fields ?? [];
  unknownKeys(fnFields, functionKeys, '"function"');
  const name = call.nameField;
  if (!name) {
    add(keySpan(fn), 'error', 'trace/function-name', '"function" has no "name": add the name of the tool called');
  } else if (name.value && name.value.kind !== 'string' && name.value.kind !== 'invalid') {
    add(valueSpan(name.value), 'error', 'trace/function-name', `The function "name" must be a string, not ${describeKind(name.value.kind)}`);
  }
  const args = call.argumentsField;
  if (!args) {
    add(keySpan(fn), 'error', 'trace/arguments-type', '"function" has no "arguments": add an object such as {} (or a JSON string encoding one)');
    return;
  }
  const v = args.value;
  if (!v || v.kind === 'invalid' || v.kind === 'object') return;
  if (v.kind !== 'string') {
    add(valueSpan(v), 'error', 'trace/arguments-type', `"arguments" must be an object or a JSON string encoding one, not ${describeKind(v.kind)}`);
    return;
  }
  checkEncodedArguments(model.text, v, decodeString(model.text, v, Infinity), argumentsSyntaxError, 'trace/arguments-json', add);
}
