/** The model of a file of spans (built by model.ts): its traces, each a tree of spans and a model of linked calls. */
import type { Span } from '../common/types';
import type { CallStep, LinkedCall, LinkedCalls, LinkedOutput, TokenUsage } from '../calls/model';
import type { JsonNode, JsonObject, JsonSyntaxError } from '../json/nodes';
import type { SpanAttribute } from './attributes';
import type { ReadId } from './ids';
import type { ReadMessage } from './messages';

/** How the file holds its spans: OTLP/JSON (the collector's file exporter) or any-agent's `{"spans": [...]}`. */
export type SpansShape = 'otlp' | 'any-agent';

/** What a span does, from `gen_ai.operation.name` or its name. */
export type SpanRole = 'model' | 'tool' | 'agent' | 'other';

/**
 * The one empty list the model's lists hold once read when they hold nothing (a message's calls, a span's children):
 * a file keeps tens of thousands of them. Frozen, so that a push onto it fails loudly.
 */
export const noItems: never[] = Object.freeze([]) as unknown as never[];

/** A list as the model keeps it once read: without the room for more that pushes leave (16 places for one item). */
export const keptList = <T>(list: T[]): T[] => (list.length === 0 ? noItems : list.slice());

/** An id as read and where its value is written: one object per id (a file keeps three per span). */
export interface IdField extends ReadId {
  readonly start: number;
  readonly end: number;
}

export interface SpanStep extends CallStep {
  /** Position among the spans of its trace, in file order. */
  readonly index: number;
  readonly span: Span;
  readonly node: JsonObject;
  trace: SpanTrace;
  readonly name?: string;
  readonly nameNode?: JsonNode;
  readonly spanId?: IdField;
  readonly parentId?: IdField;
  readonly traceId?: IdField;
  /** `internal`, `client`, … as written (OTLP's numbers named). */
  readonly kind?: string;
  /** Start and end, in milliseconds since the epoch. */
  readonly time?: number;
  readonly endTime?: number;
  /** Where the start and end times are written (places only: a file keeps two per span). */
  readonly startSpan?: Span;
  readonly endSpan?: Span;
  readonly status?: 'ok' | 'error' | 'unset';
  readonly statusMessage?: string;
  /** Where the status code is written (the status object when it has none). */
  readonly statusSpan?: Span;
  readonly attributes: Map<string, SpanAttribute>;
  readonly operation?: string;
  readonly role: SpanRole;
  readonly usage?: TokenUsage;
  /** Dollars, where the writer records them (any-agent's `gen_ai.usage.*_cost`). */
  readonly cost?: number;
  /** The service that wrote it (OTLP's resource `service.name`). */
  readonly service?: string;
  /** The messages a model span records: its input, its instructions and its output. */
  readonly input: ReadMessage[];
  readonly output: ReadMessage[];
  /** The span tree: the parent found in the file (absent for a root, or a parent not in the file). */
  parent?: SpanStep;
  children: SpanStep[];
  /** Levels below its root. */
  depth: number;
  /** Its parentSpanId closes a cycle: it is drawn as a root. */
  cycle?: boolean;
  calls: SpanCall[];
  heldOutputs: SpanOutput[];
  /** Ids that name a call again (a model's history repeats earlier calls and responses): navigation only. */
  mentions: Mention[];
}

export interface SpanCall extends LinkedCall {
  readonly step: SpanStep;
  /** The arguments, an object or a string holding one. */
  readonly args?: JsonNode;
  /** Where the call is: a model's output, its input history (a call made before this span), or a tool span itself. */
  readonly source: 'output' | 'input' | 'tool-span';
  outputs: SpanOutput[];
}

export interface SpanOutput extends LinkedOutput {
  readonly step: SpanStep;
  /** What the tool returned. */
  readonly result?: JsonNode;
  /** A tool span, or a `tool_call_response` part of a model's input. */
  readonly source: 'tool-span' | 'input';
  answers: SpanCall | null;
  index: number;
  /** The tool span is the call and its output at once (no model span made the call). */
  ownCall?: boolean;
}

export interface Mention {
  readonly step: SpanStep;
  readonly span: Span;
  readonly callId: string;
  readonly call?: SpanCall;
  readonly kind: 'call' | 'response';
}

export interface SpanTrace extends LinkedCalls {
  readonly position: number;
  /** The trace id in hex, when the spans have one. */
  readonly traceId?: string;
  readonly steps: SpanStep[];
  readonly calls: SpanCall[];
  readonly outputs: SpanOutput[];
  readonly callsById: Map<string, SpanCall[]>;
  readonly outputsByCallId: Map<string, SpanOutput[]>;
  /** Spans without a parent in the file, by start time. */
  readonly roots: SpanStep[];
  /** Spans sharing a span id with an earlier one. */
  readonly duplicates: SpanStep[];
}

export interface SpansModel {
  uri: string;
  version: number;
  readonly text: string;
  readonly shape?: SpansShape;
  readonly errors: JsonSyntaxError[];
  /** One value per line (the file exporter's form), else one document. */
  readonly lines: boolean;
  readonly traces: SpanTrace[];
  /** Every span in file order. */
  readonly steps: SpanStep[];
  /** Lines not read (past agentTraces.jsonl.maxLines), and spans not read (past the same limit). */
  readonly omittedLines: number;
  readonly omittedSpans: number;
  /** any-agent's `final_output`. */
  readonly finalOutput?: JsonNode;
  readonly root?: JsonNode;
}
