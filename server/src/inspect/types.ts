/** The model of an Inspect AI evaluation log (built by model.ts and sample.ts): the log, its samples, each sample's trace. */
import type { Span } from '../common/types';
import type { CallStep, LinkedCall, LinkedCalls, LinkedOutput, TokenUsage } from '../calls/model';
import type { JsonArray, JsonNode, JsonObject, JsonSyntaxError } from '../json/nodes';

/** One sample of the log, as listed before its messages are read. */
export interface SampleEntry {
  /** Position among the log's samples. */
  readonly index: number;
  readonly node: JsonNode;
  readonly span: Span;
  /** The sample's `id` (a number or a string, as written) and `epoch`. */
  readonly id?: string;
  readonly epoch?: number;
}

/** A message of a sample's `messages`. */
export interface MessageStep extends CallStep {
  readonly index: number;
  readonly span: Span;
  readonly node: JsonNode;
  readonly role?: string;
  readonly content?: JsonNode;
  calls: SampleCall[];
  heldOutputs: SampleOutput[];
  /** When the model request (assistant) or the tool (tool message) that wrote it completed, from the sample's events. */
  time?: number;
}

export interface SampleCall extends LinkedCall {
  readonly step: MessageStep;
  readonly node: JsonObject;
  /** `arguments`: an object in Inspect's logs. */
  readonly args?: JsonNode;
  /** `parse_error`: why the model's arguments could not be read (they are then what could be salvaged). */
  readonly parseError?: JsonNode;
  outputs: SampleOutput[];
}

export interface SampleOutput extends LinkedOutput {
  readonly step: MessageStep;
  readonly content?: JsonNode;
  /** The tool message's `function`: the tool it says it comes from. */
  readonly tool?: string;
  /** The tool message's `error` (`{type, message}`), when the tool failed. */
  readonly error?: { node: JsonNode; type?: string; message?: string };
  answers: SampleCall | null;
}

/** A sample's messages read into the model of linked calls: one trace per sample. */
export interface SampleTrace extends LinkedCalls {
  readonly sample: SampleEntry;
  readonly messages?: JsonArray;
  readonly steps: MessageStep[];
  readonly calls: SampleCall[];
  readonly outputs: SampleOutput[];
  readonly callsById: Map<string, SampleCall[]>;
  readonly outputsByCallId: Map<string, SampleOutput[]>;
  /** The sample's `attachments` (`attachment://<hash>` in content names one of them). */
  readonly attachments?: JsonNode;
  /** The sample's `model_usage`, summed over its models: its tokens, scorers' model calls included. */
  readonly usage?: TokenUsage;
}

/** What the log says of its run: the task, the model, how it ended. */
export interface LogFacts {
  task?: string;
  model?: string;
  status?: string;
  created?: string;
  /** The log's `eval` object (its key's span for the outline). */
  evalProperty?: { keyStart: number; keyEnd: number; start: number; end: number };
  /** `accuracy 0.75, stderr 0.1`: the results' metrics. */
  metrics?: string;
}

export interface InspectModel {
  uri: string;
  version: number;
  readonly text: string;
  readonly root?: JsonNode;
  readonly errors: JsonSyntaxError[];
  readonly log: LogFacts;
  /** The `samples` list (absent in a log written without them). */
  readonly samplesList?: JsonArray;
  readonly samples: SampleEntry[];
  /** Traces read so far, by sample index: each sample's messages are read when a feature first needs them. */
  readonly traces: Map<number, SampleTrace>;
  /** Samples the outline lists (and turns per sample) before a last entry says how many more there are. */
  readonly maxOutlineEntries: number;
}
