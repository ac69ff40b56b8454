/** The model of a Responses document (built by model.ts): its items as steps, its calls and outputs, the response. */
import type { Span } from '../common/types';
import type { CallStep, LinkedCall, LinkedCalls, LinkedOutput, TokenUsage } from '../calls/model';
import type { JsonArray, JsonNode, JsonSyntaxError } from '../json/nodes';
import type { CallFacts, ItemFacts, OutputFacts } from './itemFacts';

export type ItemRole = 'instructions' | 'prompt' | 'message' | 'reasoning' | 'call' | 'output' | 'item';

export interface ItemStep extends CallStep {
  /** Position among the items (the instructions and a prompt string count as items here). */
  readonly index: number;
  readonly span: Span;
  readonly node: JsonNode;
  readonly facts: ItemFacts;
  readonly role: ItemRole;
  /** `input` or `output`: where the item is (a bare list: `items`). */
  readonly list: 'input' | 'output' | 'items' | 'instructions';
  calls: ItemCall[];
  heldOutputs: ItemOutput[];
}

export interface ItemCall extends LinkedCall {
  readonly step: ItemStep;
  readonly facts: CallFacts;
  readonly argsSpan?: Span;
  outputs: ItemOutput[];
}

export interface ItemOutput extends LinkedOutput {
  readonly step: ItemStep;
  readonly facts: OutputFacts;
  readonly outputSpan?: Span;
  answers: ItemCall | null;
}

/** What the response object says of itself. */
export interface ResponseFacts {
  id?: string;
  model?: string;
  status?: string;
  /** Seconds since the epoch. */
  createdAt?: number;
  completedAt?: number;
  usage?: TokenUsage;
  error?: string;
  /** The stored conversation a request continues: its calls may be answered here without being in the file. */
  continues?: string;
}

export interface ResponsesModel extends LinkedCalls {
  uri: string;
  version: number;
  readonly text: string;
  readonly root?: JsonNode;
  readonly errors: JsonSyntaxError[];
  /** What the document is; undefined when it holds no items where a Responses document has them. */
  readonly shape?: 'request' | 'response' | 'items' | 'exchange';
  readonly steps: ItemStep[];
  readonly calls: ItemCall[];
  readonly outputs: ItemOutput[];
  readonly callsById: Map<string, ItemCall[]>;
  readonly outputsByCallId: Map<string, ItemOutput[]>;
  /** Calls by their item's own `id`: the id an output names by mistake. */
  readonly callsByItemId: Map<string, ItemCall[]>;
  readonly response?: ResponseFacts;
  /** The lists of items, for completion and checks. */
  readonly lists: JsonArray[];
}
