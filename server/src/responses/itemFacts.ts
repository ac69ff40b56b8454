/**
 * One OpenAI Responses item read once: its type, role, text, and the call or output it is, with spans made by the
 * caller's `rel` (relative to a line's start in a Codex rollout, so a line's facts survive edits elsewhere; absolute
 * in a Responses file). Strings are short copies, so the facts keep nothing of the text alive.
 */
import type { JsonNode } from '../json/nodes';
import { detached } from '../json/relocate';
import { numberValue, property } from '../json/queries';
import type { TokenUsage } from '../calls/model';
import type { Span } from '../common/types';
import { lookup, ownEntry } from '../common/lookup';
import { clientCallTypes, outputTypes, serverCallTypes } from './items';

export type Rel = (node: JsonNode) => Span;

export interface CallFacts {
  /** The id its output names (`call_id`); absent for tools the API runs itself. */
  callId?: string;
  callIdSpan?: Span;
  /** The tool: the `name` field, else the tool the item type stands for (`local_shell`, `web_search`). */
  name?: string;
  nameSpan?: Span;
  /** What the call passes: `arguments` (a JSON string), `input` (free text), or `action`/`operation` (an object). */
  argsSpan?: Span;
  argsEncoding?: 'json-string' | 'text' | 'object';
  /** What a human reads first (the command, the file), decoded and cut short. */
  keyArgument?: string;
  /** A tool the API runs itself: the item holds its result, or none is written. */
  serverSide: boolean;
  /** A server-side call that reports an error. */
  failed?: boolean;
}

export interface OutputFacts {
  callId?: string;
  callIdSpan?: Span;
  /** The key that names the call: `call_id`, or `id` for a local shell output written without one. */
  linkKey: 'call_id' | 'id';
  outputSpan?: Span;
  /** The output's first characters, decoded (a shell result's printed text rather than its JSON wrapper). */
  preview: string;
  isError: boolean;
  /** The exit code a shell command reported, where it says. */
  exitCode?: number;
  /** Codex's own answer for a call that had none when it sent the history again. */
  aborted: boolean;
}

export interface ItemFacts {
  type?: string;
  typeSpan?: Span;
  span: Span;
  /** The item's own id (`fc_…`, `msg_…`), which is not the link between a call and its output. */
  id?: string;
  idSpan?: Span;
  role?: string;
  roleSpan?: Span;
  /** A message's, reasoning summary's or custom call's text: the first characters, whitespace collapsed. */
  text?: string;
  /** The content (a message's content, a reasoning's summary). */
  contentSpan?: Span;
  call?: CallFacts;
  output?: OutputFacts;
}

const previewLength = 240;
/** Arguments longer than this are not parsed for a title. */
const maxParsedArguments = 64 * 1024;

export function readItem(node: JsonNode, rel: Rel): ItemFacts {
  const facts: ItemFacts = { span: rel(node) };
  if (node.type !== 'object') return facts;
  const typeNode = property(node, 'type')?.value;
  const roleNode = property(node, 'role')?.value;
  // An input message may leave its type out: `{"role": "user", "content": "…"}`.
  const type = typeNode?.type === 'string' ? typeNode.value : typeNode === undefined && roleNode ? 'message' : undefined;
  if (type !== undefined) facts.type = detached(type);
  if (typeNode) facts.typeSpan = rel(typeNode);
  const id = property(node, 'id')?.value;
  if (id?.type === 'string') [facts.id, facts.idSpan] = [detached(id.value), rel(id)];
  if (roleNode?.type === 'string') [facts.role, facts.roleSpan] = [detached(roleNode.value), rel(roleNode)];
  if (type === 'message') readMessage(node, facts, rel);
  else if (type === 'reasoning') readReasoning(node, facts, rel);
  else if (type !== undefined && (clientCallTypes.has(type) || serverCallTypes.has(type))) facts.call = readCall(node, type, rel, facts);
  else if (type !== undefined && outputTypes.has(type)) facts.output = readOutput(node, type, rel);
  return facts;
}

function readMessage(node: JsonNode, facts: ItemFacts, rel: Rel): void {
  const content = property(node, 'content')?.value;
  if (!content) return;
  facts.contentSpan = rel(content);
  facts.text = preview(partsText(content));
}

function readReasoning(node: JsonNode, facts: ItemFacts, rel: Rel): void {
  const summary = property(node, 'summary')?.value;
  const content = property(node, 'content')?.value;
  const text = partsText(summary) || partsText(content);
  if (summary) facts.contentSpan = rel(summary);
  if (text) facts.text = preview(text);
}

/** The text of a string, or of a list of parts (`input_text`, `output_text`, `summary_text`, …), images as `[image]`. */
export function partsText(node: JsonNode | undefined, max = previewLength * 4): string {
  if (!node) return '';
  if (node.type === 'string') return node.value.slice(0, max);
  if (node.type !== 'array') return '';
  const parts: string[] = [];
  let length = 0;
  for (const item of node.items) {
    if (length > max) break;
    const type = stringOf(property(item, 'type')?.value);
    const text = stringOf(property(item, 'text')?.value) ?? stringOf(property(item, 'refusal')?.value);
    const part = text !== undefined ? text.slice(0, max) : type === 'input_image' ? '[image]' : type === 'input_file' ? '[file]' : type ? `[${type}]` : '';
    if (part === '') continue;
    parts.push(part);
    length += part.length;
  }
  return parts.join('\n');
}

function readCall(node: JsonNode, type: string, rel: Rel, facts: ItemFacts): CallFacts {
  const call: CallFacts = { serverSide: serverCallTypes.has(type) };
  const callId = property(node, 'call_id')?.value;
  if (callId?.type === 'string') [call.callId, call.callIdSpan] = [detached(callId.value), rel(callId)];
  const name = property(node, 'name')?.value;
  if (name?.type === 'string') [call.name, call.nameSpan] = [detached(name.value), rel(name)];
  else call.name = type.replace(/_call$/, '');
  const args = property(node, 'arguments')?.value ?? property(node, 'input')?.value ?? property(node, 'action')?.value ?? property(node, 'operation')?.value
    ?? property(node, 'code')?.value ?? property(node, 'queries')?.value;
  if (args) {
    call.argsSpan = rel(args);
    call.argsEncoding = type === 'function_call' || type === 'mcp_call' ? 'json-string' : args.type === 'string' ? 'text' : 'object';
  }
  call.keyArgument = keyArgument(type, call.name, node);
  if (type === 'custom_tool_call' && args?.type === 'string') facts.text = preview(args.value);
  if (type === 'mcp_call') {
    const error = property(node, 'error')?.value;
    call.failed = error !== undefined && error.type !== 'null';
  }
  return call;
}

function readOutput(node: JsonNode, type: string, rel: Rel): OutputFacts {
  let idNode = property(node, 'call_id')?.value;
  let linkKey: OutputFacts['linkKey'] = 'call_id';
  if (!idNode && type === 'local_shell_call_output') {
    idNode = property(node, 'id')?.value;
    linkKey = 'id';
  }
  const output: OutputFacts = { linkKey, preview: '', isError: false, aborted: false };
  if (idNode?.type === 'string') [output.callId, output.callIdSpan] = [detached(idNode.value), rel(idNode)];
  const value = property(node, 'output')?.value;
  if (value) output.outputSpan = rel(value);
  const status = stringOf(property(node, 'status')?.value);
  if (type === 'apply_patch_call_output' && status === 'failed') output.isError = true;
  if (value?.type === 'string') readShellResult(value.value, output);
  else if (value?.type === 'array') {
    output.preview = preview(type === 'shell_call_output' ? shellOutputsText(value, output) : partsText(value));
  } else if (value?.type === 'object') output.preview = preview(stringOf(property(value, 'type')?.value) ?? '');
  return output;
}

/** A tool's printed result: Codex's JSON wrapper (`{"output", "metadata": {"exit_code"}}`) or its `Exit code: N` lines. */
function readShellResult(text: string, output: OutputFacts): void {
  if (text === 'aborted') {
    output.aborted = true;
    output.isError = true;
    output.preview = text;
    return;
  }
  let shown = text;
  if (text.startsWith('{') && text.length <= maxParsedArguments) {
    try {
      const parsed = JSON.parse(text) as { output?: unknown; metadata?: { exit_code?: unknown } };
      if (parsed && typeof parsed === 'object' && typeof parsed.output === 'string') {
        shown = parsed.output;
        if (typeof parsed.metadata?.exit_code === 'number') output.exitCode = parsed.metadata.exit_code;
      }
    } catch {
      // Not the wrapper: the text as it is.
    }
  }
  if (output.exitCode === undefined) {
    const code = /^(?:Exit code: |Process exited with code )(-?\d+)\s*$/m.exec(text.slice(0, 2000));
    if (code) output.exitCode = Number(code[1]);
  }
  if (output.exitCode !== undefined && output.exitCode !== 0) output.isError = true;
  output.preview = preview(shown);
}

function shellOutputsText(outputs: JsonNode & { type: 'array' }, output: OutputFacts): string {
  const parts: string[] = [];
  for (const entry of outputs.items) {
    const outcome = property(entry, 'outcome')?.value;
    const exit = property(outcome, 'exit_code')?.value;
    if (exit?.type === 'number' && Number(exit.raw) !== 0) {
      output.exitCode ??= Number(exit.raw);
      output.isError = true;
    }
    if (stringOf(property(outcome, 'type')?.value) === 'timeout') output.isError = true;
    const stdout = stringOf(property(entry, 'stdout')?.value) ?? '';
    const stderr = stringOf(property(entry, 'stderr')?.value) ?? '';
    parts.push([stdout, stderr].filter(Boolean).join('\n'));
  }
  return parts.join('\n');
}

/** Arguments that say what a call does, per function (Codex's tools first), then the usual names. */
const keyArguments: Record<string, readonly string[]> = lookup({
  shell: ['command'],
  'container.exec': ['command'],
  shell_command: ['command'],
  exec_command: ['cmd'],
  write_stdin: ['chars', 'session_id'],
  view_image: ['path'],
  read_file: ['file_path', 'path'],
  list_dir: ['dir_path', 'path'],
  grep_files: ['pattern'],
});
const usualKeys = ['command', 'cmd', 'file_path', 'path', 'query', 'url', 'pattern', 'input', 'q'];

function keyArgument(type: string, name: string | undefined, node: JsonNode): string | undefined {
  switch (type) {
    case 'custom_tool_call': {
      const input = stringOf(property(node, 'input')?.value);
      return input === undefined ? undefined : patchedFiles(input) ?? argumentPreview(input);
    }
    case 'local_shell_call':
      return commandText(property(property(node, 'action')?.value, 'command')?.value);
    case 'shell_call': {
      const commands = property(property(node, 'action')?.value, 'commands')?.value;
      return commands?.type === 'array' ? argumentPreview(commands.items.map((item) => stringOf(item) ?? '').join('; ')) : undefined;
    }
    case 'apply_patch_call': {
      const operation = property(node, 'operation')?.value;
      const path = stringOf(property(operation, 'path')?.value);
      const kind = stringOf(property(operation, 'type')?.value);
      return path === undefined ? kind : `${kind ? `${kind.replace(/_file$/, '')} ` : ''}${path}`;
    }
    case 'computer_call':
      return stringOf(property(property(node, 'action')?.value, 'type')?.value);
    case 'web_search_call': {
      const action = property(node, 'action')?.value;
      return stringOf(property(action, 'query')?.value) ?? stringOf(property(action, 'url')?.value);
    }
    case 'file_search_call': {
      const queries = property(node, 'queries')?.value;
      return queries?.type === 'array' ? argumentPreview(queries.items.map((item) => stringOf(item) ?? '').join('; ')) : undefined;
    }
    case 'function_call':
    case 'mcp_call':
      return functionKeyArgument(name, property(node, 'arguments')?.value);
    default:
      return undefined;
  }
}

function functionKeyArgument(name: string | undefined, args: JsonNode | undefined): string | undefined {
  if (args?.type !== 'string' || args.end - args.start > maxParsedArguments) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(args.value);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const values = parsed as Record<string, unknown>;
  if (name === 'update_plan' && Array.isArray(values.plan)) return `${values.plan.length} step${values.plan.length === 1 ? '' : 's'}`;
  if (name === 'apply_patch' && typeof values.input === 'string') return patchedFiles(values.input);
  for (const key of [...((name !== undefined && ownEntry(keyArguments, name)) || []), ...usualKeys]) {
    if (!Object.prototype.hasOwnProperty.call(values, key)) continue;
    const value = values[key];
    if (typeof value === 'string') return argumentPreview(value);
    if (Array.isArray(value) && value.every((part) => typeof part === 'string')) return commandTextOf(value as string[]);
  }
  const first = Object.values(values).find((value) => typeof value === 'string');
  return typeof first === 'string' ? argumentPreview(first) : undefined;
}

/** An argument vector as the command a shell would run: `bash -lc "…"` shows its script. */
function commandTextOf(argv: string[]): string {
  const shell = argv.length === 3 && /(^|\/)(ba|z|)sh$/.test(argv[0]) && /^-l?c$/.test(argv[1]);
  return argumentPreview(shell ? argv[2] : argv.join(' '));
}

function commandText(node: JsonNode | undefined): string | undefined {
  if (node?.type === 'string') return argumentPreview(node.value);
  if (node?.type !== 'array') return undefined;
  return commandTextOf(node.items.map((item) => stringOf(item) ?? ''));
}

/** The files a patch (`*** Update File: src/app.ts`) touches. */
function patchedFiles(patch: string): string | undefined {
  const files = [...patch.slice(0, 20_000).matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)].map((match) => match[1].trim());
  return files.length === 0 ? undefined : argumentPreview(files.join(', '));
}

/** An argument shown on one line (a command, a path): its line breaks and tabs written as escapes, as a shell reads them. */
function argumentPreview(text: string, max = 120): string {
  return preview(text.slice(0, max * 4).replace(/\r?\n/g, '\\n').replace(/\t/g, '\\t'), max);
}

/** One line of at most `max` characters, whitespace collapsed. */
export function preview(text: string, max = previewLength): string {
  const cut = text.length > max * 4 ? text.slice(0, max * 4) : text;
  const flat = cut.replace(/\s+/g, ' ').trim();
  return detached(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}

export function stringOf(node: JsonNode | undefined): string | undefined {
  return node?.type === 'string' ? detached(node.value) : undefined;
}

/**
 * Token counts as OpenAI writes them: a response's `usage` (`input_tokens_details.cached_tokens`,
 * `output_tokens_details.reasoning_tokens`) or Codex's token usage (`cached_input_tokens`, `reasoning_output_tokens`);
 * undefined when none is there.
 */
export function readUsage(node: JsonNode | undefined): TokenUsage | undefined {
  if (node?.type !== 'object') return undefined;
  const count = (key: string, detail?: [string, string]) =>
    numberValue(property(node, key)?.value) ?? (detail ? numberValue(property(property(node, detail[0])?.value, detail[1])?.value) : undefined);
  const usage: TokenUsage = {
    input: count('input_tokens'),
    cachedInput: count('cached_input_tokens', ['input_tokens_details', 'cached_tokens']),
    output: count('output_tokens'),
    reasoning: count('reasoning_output_tokens', ['output_tokens_details', 'reasoning_tokens']),
    total: count('total_tokens'),
  };
  for (const key of Object.keys(usage) as (keyof TokenUsage)[]) if (usage[key] === undefined) delete usage[key];
  return Object.keys(usage).length > 0 ? usage : undefined;
}
