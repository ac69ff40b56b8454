/** The model of an Anthropic Messages document (built by model.ts): its conversations, their messages, calls and outputs. */
import type { Span } from '../common/types';
import type { CallStep, LinkedCall, LinkedCalls, LinkedOutput } from '../calls/model';
import type { JsonNode, JsonObject, JsonSyntaxError } from '../json/nodes';

/** What a JSON value of the document is: a request body, a response, a list of messages, one message. */
export type ValueShape = 'request' | 'response' | 'messages' | 'message';

/** One value of the document: the whole text, or one line of a JSON Lines file. */
export interface DocumentValue {
  root?: JsonNode;
  shape?: ValueShape;
  /** The line number, in a JSON Lines file. */
  line?: number;
  start: number;
  end: number;
  errors: JsonSyntaxError[];
}

/** A message of the conversation, or the request's system prompt. */
export interface MessageStep extends CallStep {
  readonly index: number;
  readonly span: Span;
  /** `messages[2]`, `system`, `the response`, `line 4`: how messages and hovers name it. */
  readonly name: string;
  /** `#2`, `sys`, `resp`, `L4`: the inlay hints' short name. */
  readonly short: string;
  readonly role?: string;
  /** The request's system prompt (its role is `system`), not a message. */
  readonly system: boolean;
  readonly node: JsonNode;
  /** The `content` value (the system prompt's value for the system step). */
  readonly content?: JsonNode;
  /** The content's blocks, when it is a list. */
  readonly blocks: readonly JsonNode[];
  readonly value: DocumentValue;
  calls: ConversationCall[];
  heldOutputs: ConversationOutput[];
}

export interface ConversationCall extends LinkedCall {
  readonly step: MessageStep;
  readonly block: JsonObject;
  readonly input?: JsonNode;
  /** A call the API runs itself (server_tool_use, mcp_tool_use): its result is in the same message. */
  readonly server: boolean;
  outputs: ConversationOutput[];
}

export interface ConversationOutput extends LinkedOutput {
  readonly step: MessageStep;
  readonly block: JsonObject;
  readonly type: string;
  readonly content?: JsonNode;
  answers: ConversationCall | null;
}

export interface Conversation extends LinkedCalls {
  readonly steps: MessageStep[];
  readonly calls: ConversationCall[];
  readonly outputs: ConversationOutput[];
  readonly callsById: Map<string, ConversationCall[]>;
  readonly outputsByCallId: Map<string, ConversationOutput[]>;
  /** The tools the request defines, by name. */
  readonly tools: Map<string, JsonObject>;
  /** The values it was read from (a request, and the response that follows it in a JSON Lines file). */
  readonly values: DocumentValue[];
  readonly span: Span;
}

export interface ConversationModel {
  uri: string;
  version: number;
  text: string;
  /** Read as JSON Lines: one value per line. */
  lines: boolean;
  values: DocumentValue[];
  conversations: Conversation[];
}
