/**
 * One record (line) of a Claude Code session, read once when the line is read: its type, ids, chain links, time and
 * message blocks, as short strings and spans relative to the line's start. Relative spans and copied strings keep
 * nothing of the text alive, so a line's facts stay valid when an edit elsewhere moves it (only appended or edited
 * lines are read again).
 */
import { detached } from '../../json/relocate';
import type { Field as AnyField, JsonValue as AnyJsonValue, ReadingPlan } from '../../json/tree';
import { decodeJsonString } from '../../json/strings';
import type { Span } from '../../common/types';
import { lookup } from '../../common/lookup';

/** A span relative to the start of its line. */
export type RelativeSpan = Span;

export interface ToolUseFacts {
  id?: string;
  idSpan?: RelativeSpan;
  name?: string;
  nameSpan?: RelativeSpan;
  /** The `input` value. */
  inputSpan?: RelativeSpan;
  /** What a human reads first (`npm test` for Bash, the file for Edit), decoded and cut short. */
  keyArgument?: string;
}

export interface ToolResultFacts {
  toolUseId?: string;
  idSpan?: RelativeSpan;
  isError: boolean;
  /** The `content` value (a string or a list of blocks), absent when the block has none. */
  contentSpan?: RelativeSpan;
  /** The content's first characters, decoded. */
  preview: string;
  /** The content is empty (no text, no blocks). */
  empty: boolean;
}

export interface BlockFacts {
  /** `text`, `thinking`, `tool_use`, `tool_result`, `image`, … */
  type: string;
  span: RelativeSpan;
  /** text and thinking blocks: their first characters. */
  preview?: string;
  /** The `text` value of a text block. */
  textSpan?: RelativeSpan;
  toolUse?: ToolUseFacts;
  toolResult?: ToolResultFacts;
}

export interface MessageFacts {
  role?: string;
  /** The API message's id (`msg_…`): an assistant message split over several lines shares it. */
  id?: string;
  model?: string;
  /** The `content` value. */
  contentSpan?: RelativeSpan;
  /** A string content's first characters (a prompt typed by the user). */
  text?: string;
  blocks: BlockFacts[];
  inputTokens?: number;
  outputTokens?: number;
}

export interface RecordFacts {
  type?: string;
  typeSpan?: RelativeSpan;
  uuid?: string;
  uuidSpan?: RelativeSpan;
  /** Whether the record has a `parentUuid` key at all (older sessions have none: the file's order is the chain). */
  hasParent: boolean;
  /** The parent's uuid; null for the first record of a chain. */
  parentUuid?: string | null;
  parentSpan?: RelativeSpan;
  /** A compaction boundary's link to the record before the compaction (which may not be in the file). */
  logicalParentUuid?: string;
  logicalParentSpan?: RelativeSpan;
  /** A summary record's last record of the conversation it summarises. */
  leafUuid?: string;
  leafSpan?: RelativeSpan;
  sessionId?: string;
  /** Milliseconds since the epoch. */
  time?: number;
  sidechain: boolean;
  agentId?: string;
  agentIdSpan?: RelativeSpan;
  subtype?: string;
  isMeta: boolean;
  isCompactSummary: boolean;
  message?: MessageFacts;
  /** `toolUseResult.agentId`: the subagent a Task call's result came from. */
  resultAgentId?: string;
  /** A system record's text, a summary's summary, a queued command: the first characters. */
  text?: string;
  /** compact_boundary: what triggered it and how many tokens there were before. */
  compactTrigger?: string;
  compactTokens?: number;
  progress?: ProgressFacts;
}

/** A progress record: a hook, a command's output, or a subagent's message echoed while its Task call runs. */
export interface ProgressFacts {
  dataType?: string;
  toolUseId?: string;
  toolUseIdSpan?: RelativeSpan;
  parentToolUseId?: string;
  parentToolUseIdSpan?: RelativeSpan;
  agentId?: string;
  agentIdSpan?: RelativeSpan;
  /** agent_progress: the subagent's message (`data.message`), read as a message record's would be. */
  echo?: { type?: string; uuid?: string; time?: number; message?: MessageFacts };
  hookEvent?: string;
  hookName?: string;
}

const previewLength = 240;

/** What a recorded container is in a session's record (only these are recorded; see sessionPlan). */
export type RecordShape = 'root' | 'message' | 'content' | 'block' | 'input' | 'parts' | 'part' | 'usage' | 'result' | 'data' | 'echo' | 'meta';
type JsonValue = AnyJsonValue<RecordShape>;
type Field = AnyField<RecordShape>;

const childShapes: Partial<Record<RecordShape, (key: string | undefined, isObject: boolean) => RecordShape | null>> = {
  root: (key, isObject) => (!isObject ? null : key === 'message' ? 'message' : key === 'toolUseResult' ? 'result' : key === 'data' ? 'data' : key === 'compactMetadata' ? 'meta' : null),
  message: (key, isObject) => (key === 'content' && !isObject ? 'content' : key === 'usage' && isObject ? 'usage' : null),
  content: (_key, isObject) => (isObject ? 'block' : null),
  block: (key, isObject) => (key === 'input' && isObject ? 'input' : key === 'content' && !isObject ? 'parts' : null),
  parts: (_key, isObject) => (isObject ? 'part' : null),
  data: (key, isObject) => (key === 'message' && isObject ? 'echo' : null),
  echo: (key, isObject) => (key === 'message' && isObject ? 'message' : null),
};

/**
 * How a record line is read: one pass of the tolerant reader that records only what a record's facts come from
 * (the record, its message and blocks, a call's input, a result's parts, a progress record's data), in a line's words.
 */
export const sessionPlan: ReadingPlan<RecordShape> = {
  childShape(parent, key, isObject) {
    if (parent === undefined) return isObject ? 'root' : null;
    return childShapes[parent]?.(key, isObject) ?? null;
  },
  words: { unit: 'line', oneValue: 'a line holds one JSON value', expectedValueHint: '', commentsWhere: 'in JSON Lines' },
};

/** Reads records of one line of text (`lineStart`: where the line starts; spans are kept relative to it). */
class RecordReader {
  constructor(private readonly text: string, private readonly lineStart: number) {}

  rel(value: { start: number; end: number }): RelativeSpan {
    return { start: value.start - this.lineStart, end: value.end - this.lineStart };
  }

  /** A string value, decoded whole (ids, names, types: short). */
  string(value: JsonValue | null | undefined): string | undefined {
    if (value?.kind !== 'string') return undefined;
    if (value.str !== undefined) return value.str;
    return detached(this.decode(value, Infinity));
  }

  /** At most max characters of a string value, decoded without reading the rest of a long one. */
  decode(value: JsonValue, max: number): string {
    if (value.str !== undefined) return value.str.length > max ? value.str.slice(0, max) : value.str;
    const closed = value.end - value.start >= 2 && this.text.charCodeAt(value.end - 1) === 0x22;
    return decodeJsonString(this.text, value.start + 1, closed ? value.end - 1 : value.end, max);
  }

  number(value: JsonValue | null | undefined): number | undefined {
    if (value?.kind !== 'number') return undefined;
    const number = Number(this.text.slice(value.start, value.end));
    return Number.isFinite(number) ? number : undefined;
  }

  boolean(value: JsonValue | null | undefined): boolean {
    return value?.kind === 'boolean' && this.text.charCodeAt(value.start) === 0x74;
  }

  time(value: JsonValue | null | undefined): number | undefined {
    const text = this.string(value);
    if (text === undefined) return undefined;
    const time = Date.parse(text);
    return Number.isNaN(time) ? undefined : time;
  }

  /** One line of at most `max` characters of a string value, whitespace collapsed. */
  preview(value: JsonValue | null | undefined, max = previewLength): string | undefined {
    return value?.kind === 'string' ? oneLine(this.decode(value, max * 4), max) : undefined;
  }
}

function field(value: JsonValue | null | undefined, name: string): JsonValue | null | undefined {
  const fields = value?.fields;
  if (!fields) return undefined;
  for (const f of fields) if (f.name === name) return f.value;
  return undefined;
}

/** Where the span of each id a record holds is kept. */
const spanKeys = { uuid: 'uuidSpan', logicalParentUuid: 'logicalParentSpan', leafUuid: 'leafSpan', agentId: 'agentIdSpan' } as const;

/**
 * The facts of a record read by sessionPlan (`root`), whose line starts at `lineStart`; undefined when the line is
 * not an object with a string `type`.
 */
export function readRecord(text: string, root: JsonValue, lineStart: number): RecordFacts | undefined {
  if (root.kind !== 'object' || !root.fields) return undefined;
  const read = new RecordReader(text, lineStart);
  const typeField = root.fields.find((f) => f.name === 'type');
  const type = read.string(typeField?.value);
  if (type === undefined) return undefined;
  const facts: RecordFacts = { type, typeSpan: read.rel(typeField!.value!), hasParent: false, sidechain: false, isMeta: false, isCompactSummary: false };
  let toolUse: Field | undefined;
  let parentToolUse: Field | undefined;
  for (const f of root.fields) {
    const value = f.value;
    if (!value) continue;
    switch (f.name) {
      case 'uuid':
      case 'logicalParentUuid':
      case 'leafUuid':
      case 'agentId':
        if (value.kind === 'string') {
          facts[f.name] = read.string(value);
          facts[spanKeys[f.name]] = read.rel(value);
        }
        break;
      case 'parentUuid':
        facts.hasParent = true;
        facts.parentUuid = read.string(value) ?? null;
        facts.parentSpan = read.rel(value);
        break;
      case 'sessionId':
      case 'subtype':
        facts[f.name] = read.string(value);
        break;
      case 'timestamp':
        facts.time = read.time(value);
        break;
      case 'isSidechain':
        facts.sidechain = read.boolean(value);
        break;
      case 'isMeta':
      case 'isCompactSummary':
        facts[f.name] = read.boolean(value);
        break;
      case 'message':
        facts.message = readMessage(read, value);
        break;
      case 'toolUseResult':
        facts.resultAgentId = read.string(field(value, 'agentId'));
        break;
      case 'content':
      case 'summary':
        facts.text = read.preview(value);
        break;
      case 'compactMetadata':
        facts.compactTrigger = read.string(field(value, 'trigger'));
        facts.compactTokens = read.number(field(value, 'preTokens'));
        break;
      case 'data':
        if (type === 'progress') facts.progress = readProgress(read, value);
        break;
      case 'toolUseID':
        toolUse = f;
        break;
      case 'parentToolUseID':
        parentToolUse = f;
        break;
      default:
        break;
    }
  }
  if (facts.progress) {
    if (toolUse?.value?.kind === 'string') [facts.progress.toolUseId, facts.progress.toolUseIdSpan] = [read.string(toolUse.value), read.rel(toolUse.value)];
    if (parentToolUse?.value?.kind === 'string') {
      [facts.progress.parentToolUseId, facts.progress.parentToolUseIdSpan] = [read.string(parentToolUse.value), read.rel(parentToolUse.value)];
    }
  }
  return facts;
}

function readProgress(read: RecordReader, data: JsonValue): ProgressFacts {
  const progress: ProgressFacts = { dataType: read.string(field(data, 'type')) };
  const agent = field(data, 'agentId');
  if (agent?.kind === 'string') [progress.agentId, progress.agentIdSpan] = [read.string(agent), read.rel(agent)];
  progress.hookEvent = read.string(field(data, 'hookEvent'));
  progress.hookName = read.string(field(data, 'hookName'));
  const echoed = field(data, 'message');
  if (progress.dataType === 'agent_progress' && echoed?.kind === 'object') {
    const message = field(echoed, 'message');
    progress.echo = {
      type: read.string(field(echoed, 'type')),
      uuid: read.string(field(echoed, 'uuid')),
      time: read.time(field(echoed, 'timestamp')),
      message: message ? readMessage(read, message) : undefined,
    };
  }
  return progress;
}

function readMessage(read: RecordReader, message: JsonValue): MessageFacts {
  const facts: MessageFacts = { blocks: [] };
  if (message.kind !== 'object') return facts;
  facts.role = read.string(field(message, 'role'));
  facts.id = read.string(field(message, 'id'));
  facts.model = read.string(field(message, 'model'));
  const usage = field(message, 'usage');
  facts.inputTokens = read.number(field(usage, 'input_tokens'));
  facts.outputTokens = read.number(field(usage, 'output_tokens'));
  const content = field(message, 'content');
  if (!content) return facts;
  facts.contentSpan = read.rel(content);
  if (content.kind === 'string') facts.text = read.preview(content);
  else if (content.items) for (const block of content.items) facts.blocks.push(readBlock(read, block));
  return facts;
}

function readBlock(read: RecordReader, block: JsonValue): BlockFacts {
  const facts: BlockFacts = { type: read.string(field(block, 'type')) ?? '', span: read.rel(block) };
  switch (facts.type) {
    case 'text':
    case 'thinking': {
      const text = field(block, facts.type);
      if (text?.kind === 'string') {
        facts.preview = read.preview(text);
        facts.textSpan = read.rel(text);
      }
      break;
    }
    case 'tool_use':
    case 'server_tool_use': {
      const id = field(block, 'id');
      const name = field(block, 'name');
      const input = field(block, 'input');
      const tool = read.string(name);
      facts.toolUse = {
        id: read.string(id),
        idSpan: id ? read.rel(id) : undefined,
        name: tool,
        nameSpan: name ? read.rel(name) : undefined,
        inputSpan: input ? read.rel(input) : undefined,
        keyArgument: input ? keyArgument(read, tool, input) : undefined,
      };
      break;
    }
    case 'tool_result': {
      const id = field(block, 'tool_use_id');
      const content = field(block, 'content');
      facts.toolResult = {
        toolUseId: read.string(id),
        idSpan: id ? read.rel(id) : undefined,
        isError: read.boolean(field(block, 'is_error')),
        contentSpan: content ? read.rel(content) : undefined,
        preview: content ? resultPreview(read, content) : '',
        empty: !content || content.kind === 'null' || (content.kind === 'string' && content.end - content.start <= 2) || (content.kind === 'array' && content.items?.length === 0),
      };
      break;
    }
    default:
      break;
  }
  return facts;
}

/** The first characters of a tool result's content: a string, or its text parts joined (images as `[image]`). */
function resultPreview(read: RecordReader, content: JsonValue): string {
  if (content.kind === 'string') return read.preview(content)!;
  const parts: string[] = [];
  for (const part of content.items ?? []) {
    if (parts.join(' ').length > previewLength) break;
    const type = read.string(field(part, 'type'));
    if (type === 'text') parts.push(read.preview(field(part, 'text')) ?? '');
    else if (type === 'image') parts.push('[image]');
  }
  return oneLine(parts.join(' '), previewLength);
}

/** The argument that says what a call does, per Claude Code tool: the command, the file, the pattern, the URL, the task. */
const keyArguments: Record<string, readonly string[]> = lookup({
  Bash: ['command'],
  BashOutput: ['bash_id'],
  KillShell: ['shell_id'],
  Read: ['file_path'],
  Write: ['file_path'],
  Edit: ['file_path'],
  MultiEdit: ['file_path'],
  NotebookEdit: ['notebook_path'],
  Glob: ['pattern'],
  Grep: ['pattern'],
  LS: ['path'],
  WebFetch: ['url'],
  WebSearch: ['query'],
  Task: ['description', 'subagent_type'],
  Agent: ['description', 'subagent_type'],
  TaskOutput: ['task_id'],
  Skill: ['skill', 'command'],
  SlashCommand: ['command'],
  ExitPlanMode: ['plan'],
  AskUserQuestion: ['questions'],
  TodoWrite: ['todos'],
});

function keyArgument(read: RecordReader, tool: string | undefined, input: JsonValue): string | undefined {
  if (input.kind !== 'object') return undefined;
  for (const key of (tool !== undefined && keyArguments[tool]) || []) {
    const value = field(input, key);
    if (value?.kind === 'string') return read.preview(value, 120);
    // A list (todos, questions) is not recorded: counted from its text would cost a read of its own.
    if (value?.kind === 'array') return key === 'todos' ? 'todo list' : key === 'questions' ? 'questions' : undefined;
  }
  return undefined;
}

/** One line of at most `max` characters, whitespace collapsed. */
function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return detached(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}
