/**
 * One record (line) of a Codex rollout, read once when the line is read: `{timestamp, type, payload}` with what its
 * payload says (a Responses item, a UI event, the session's or turn's settings), as short strings and spans relative
 * to the line's start. Relative spans and copied strings keep nothing of the text alive, so a line's facts stay
 * valid when an edit elsewhere moves it: only appended or edited lines are read again.
 */
import type { JsonNode, JsonObject } from '../../json/nodes';
import { numberValue, property } from '../../json/queries';
import { detached } from '../../json/relocate';
import type { Span } from '../../common/types';
import type { TokenUsage } from '../../calls/model';
import { preview, readItem, readUsage, stringOf, type ItemFacts } from '../../responses/itemFacts';

export interface EventFacts {
  /** The UI text a `user_message`, `agent_message` or `agent_reasoning` event repeats, whitespace collapsed. */
  text?: string;
  /** A call's id, on events that report a call (`exec_command_end`, `patch_apply_end`, `mcp_tool_call_end`, …). */
  callId?: string;
  callIdSpan?: Span;
  /** token_count: the running total and the last request's tokens. */
  totalUsage?: TokenUsage;
  lastUsage?: TokenUsage;
  /** turn_aborted: why (`interrupted`, `replaced`, …). */
  reason?: string;
  /** exec_command_end: the command's exit code and how long it ran. */
  exitCode?: number;
  durationMs?: number;
  turnId?: string;
}

export interface SessionMetaFacts {
  id?: string;
  cwd?: string;
  cliVersion?: string;
  originator?: string;
  modelProvider?: string;
  /** turn_context: the model of the turn. */
  model?: string;
}

export interface RolloutFacts {
  /** `session_meta`, `turn_context`, `response_item`, `event_msg`, `compacted`. */
  type?: string;
  typeSpan?: Span;
  /** Milliseconds since the epoch. */
  time?: number;
  timeSpan?: Span;
  payloadSpan?: Span;
  /** The payload's `type`: the item type of a response_item, the event of an event_msg. */
  payloadType?: string;
  payloadTypeSpan?: Span;
  item?: ItemFacts;
  event?: EventFacts;
  meta?: SessionMetaFacts;
  /** compacted: the summary's first characters. */
  summary?: string;
}

/** The facts of a record whose line starts at `lineStart`; undefined when the line is not an object with a string `type`. */
export function readRolloutRecord(root: JsonNode, lineStart: number): RolloutFacts | undefined {
  if (root.type !== 'object') return undefined;
  const type = property(root, 'type')?.value;
  if (type?.type !== 'string') return undefined;
  const rel = (node: JsonNode): Span => ({ start: node.start - lineStart, end: node.end - lineStart });
  const facts: RolloutFacts = { type: detached(type.value), typeSpan: rel(type) };
  const timestamp = property(root, 'timestamp')?.value;
  if (timestamp) {
    facts.timeSpan = rel(timestamp);
    facts.time = timeOf(timestamp);
  }
  const payload = property(root, 'payload')?.value;
  if (!payload) return facts;
  facts.payloadSpan = rel(payload);
  if (payload.type !== 'object') return facts;
  const payloadType = property(payload, 'type')?.value;
  if (payloadType?.type === 'string') [facts.payloadType, facts.payloadTypeSpan] = [detached(payloadType.value), rel(payloadType)];
  switch (facts.type) {
    case 'response_item':
      facts.item = readItem(payload, rel);
      break;
    case 'event_msg':
      facts.event = readEvent(payload, rel);
      break;
    case 'session_meta':
    case 'turn_context':
      facts.meta = readMeta(payload);
      break;
    case 'compacted':
      facts.summary = preview(stringOf(property(payload, 'message')?.value) ?? '');
      break;
    default:
      break;
  }
  return facts;
}

function readEvent(payload: JsonObject, rel: (node: JsonNode) => Span): EventFacts {
  const event: EventFacts = {};
  const text = property(payload, 'message')?.value ?? property(payload, 'text')?.value;
  if (text?.type === 'string') event.text = preview(text.value);
  const callId = property(payload, 'call_id')?.value;
  if (callId?.type === 'string') [event.callId, event.callIdSpan] = [detached(callId.value), rel(callId)];
  const info = property(payload, 'info')?.value;
  if (info?.type === 'object') {
    event.totalUsage = readUsage(property(info, 'total_token_usage')?.value);
    event.lastUsage = readUsage(property(info, 'last_token_usage')?.value);
  }
  event.reason = stringOf(property(payload, 'reason')?.value);
  event.turnId = stringOf(property(payload, 'turn_id')?.value);
  const exit = numberValue(property(payload, 'exit_code')?.value);
  if (exit !== undefined) event.exitCode = exit;
  const duration = property(payload, 'duration')?.value;
  if (duration?.type === 'object') {
    const secs = numberValue(property(duration, 'secs')?.value);
    const nanos = numberValue(property(duration, 'nanos')?.value);
    if (secs !== undefined) event.durationMs = secs * 1000 + (nanos ?? 0) / 1e6;
  }
  return event;
}

function readMeta(payload: JsonObject): SessionMetaFacts {
  return {
    id: stringOf(property(payload, 'id')?.value),
    cwd: stringOf(property(payload, 'cwd')?.value),
    cliVersion: stringOf(property(payload, 'cli_version')?.value),
    originator: stringOf(property(payload, 'originator')?.value),
    modelProvider: stringOf(property(payload, 'model_provider')?.value),
    model: stringOf(property(payload, 'model')?.value),
  };
}

function timeOf(node: JsonNode): number | undefined {
  if (node.type !== 'string') return undefined;
  const time = Date.parse(node.value);
  return Number.isNaN(time) ? undefined : time;
}
