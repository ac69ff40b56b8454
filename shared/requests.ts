/**
 * The custom LSP requests and notifications between the client and the language server, each a method name typed
 * with its params and result. Both sides go through the functions below, so the server's handler and the client's
 * call are checked against the same types. (Not the JSON-RPC library's RequestType classes: the client and the
 * server bundle different versions of that library, whose classes do not match.) No imports: the webview may share it.
 */
import type { CompareData, GraphData, LineRange } from './protocol';

export interface RequestType<Params, Result> {
  readonly method: string;
  /** Never set: carries the types. */
  readonly types?: { params: Params; result: Result };
}

export interface NotificationType<Params> {
  readonly method: string;
  /** Never set: carries the type. */
  readonly types?: { params: Params };
}

export interface GraphParams {
  uri: string;
  /** Dataset files: which trace (line) to draw; defaults to the one under `cursorLine` or the first. */
  traceIndex?: number;
  cursorLine?: number;
}

/** The preview asks for the graph of a document (open, or read from disk when too large to open). */
export const GraphRequest: RequestType<GraphParams, GraphData> = { method: 'agentTraces/graph' };

export interface CompareSideParams {
  uri: string;
  /** The text to compare when it is not the file's own (a committed version); else the open document or the file. */
  text?: string;
  /** The side's name in the view (`HEAD`); the file's name when absent. */
  label?: string;
  /** Datasets: which trace (among the dataset's traces) to compare; the first when absent. */
  traceIndex?: number;
}

export interface CompareParams {
  left: CompareSideParams;
  right: CompareSideParams;
  /** Compare call ids too (regenerated ids become changes). */
  compareIds?: boolean;
}

/** The step-aligned diff of two traces, laid out for the compare view. */
export const CompareRequest: RequestType<CompareParams, CompareData> = { method: 'agentTraces/compare' };

export interface CompareLocateParams {
  /** CompareData.id. */
  id: string;
  side: 'left' | 'right';
  step: number;
  /** A field of the step (CompareField.path, or rightPath on the right); the step itself when absent. */
  path?: string;
}

/**
 * Where a step of a comparison the server still keeps is in that side's text (and what a click selects: its role,
 * its tool's name, the call it answers, or the field); null once the server no longer keeps the comparison.
 */
export const CompareLocateRequest: RequestType<CompareLocateParams, { range: LineRange; selection: LineRange } | null> = { method: 'agentTraces/compareLocate' };

export interface ModelChangedParams {
  uri: string;
  version: number;
}

/** Sent by the server when a document's model changed, so that an open preview can ask again. */
export const ModelChangedNotification: NotificationType<ModelChangedParams> = { method: 'agentTraces/modelChanged' };

export interface ServerInfo {
  pid: number;
  version: string;
}

/** Facts about the running server, for diagnostics and for the extension-host tests (which restart it). */
export const ServerInfoRequest: RequestType<void, ServerInfo> = { method: 'agentTraces/serverInfo' };

/**
 * Files for a language server that cannot read them itself (in VS Code for the Web it runs in a web worker): the
 * server asks the client, which reads and lists folders through `workspace.fs`. The server bounds each
 * answer as it bounds a read from disk (a size cap, a count cap); the client applies the same caps before reading.
 */
export interface ReadFileParams {
  uri: string;
  /** A file larger than this is refused, not read in part. */
  maxBytes: number;
}

export type ReadFileResult = { ok: true; text: string } | { ok: false; reason: string; tooLarge?: number };

export const ReadFileRequest: RequestType<ReadFileParams, ReadFileResult> = { method: 'agentTraces/readFile' };

export interface ListFilesParams {
  /** A folder's URI: the files below it, in any depth, leaving out dependency, version-control and build folders. */
  folder: string;
  /** Folder names left out wherever they are (node_modules, .git, …). */
  skippedFolders: string[];
  maxFiles: number;
}

export interface ListFilesResult {
  /** File URIs, sorted. */
  uris: string[];
  /** More files were there than maxFiles. */
  truncated: boolean;
  /** Why the folder could not be listed. */
  problem?: string;
}

export const ListFilesRequest: RequestType<ListFilesParams, ListFilesResult> = { method: 'agentTraces/listFiles' };

/** What a URI names: a regular file, something else (a folder), or nothing. */
export const FileKindRequest: RequestType<{ uri: string }, 'file' | 'other' | 'missing'> = { method: 'agentTraces/fileKind' };

/**
 * The text of a bundle of the extension for a language server in a web worker, which makes its rule evaluation
 * workers from it (a `blob:` URL): the client reads it from the extension's own files.
 */
export const WorkerBundleRequest: RequestType<{ name: 'evaluationWorker' }, string> = { method: 'agentTraces/workerBundle' };

/**
 * Whether a document the editor gave a generic language (`json`, `jsonl`) is one the server reads by its content
 * (an Anthropic Messages conversation), and as which of our languages; null when it is not ours.
 */
export interface RecognizeDocumentParams {
  uri: string;
  languageId: string;
  text: string;
}

export const RecognizeDocumentRequest: RequestType<RecognizeDocumentParams, string | null> = { method: 'agentTraces/recognizeDocument' };

/**
 * Words every Anthropic conversation holds (what the server's recognition takes as Anthropic's): the client asks the
 * server about a generic JSON document only when they are in it, so other files cost it one search.
 */
export const conversationWords = /"type"\s*:\s*"(?:message|tool_use|tool_result|thinking|redacted_thinking|server_tool_use|mcp_tool_use|search_result|container_upload|image|document|\w+_tool_result)"|"(?:system|input_schema)"\s*:|"model"\s*:\s*"claude|"type"\s*:\s*"[a-z_]+_\d{8}"/;

/**
 * What the beginning of an Inspect AI log holds (its `eval` object, with the task's id): the client shows the server
 * only that beginning (inspectLogHead characters), which is all the server's recognition of a log reads.
 */
export const inspectLogWords = /"eval"\s*:\s*\{[^]*?"(?:task_id|eval_id)"\s*:/;
export const inspectLogHead = 64 * 1024;

export interface RulesForTraceParams {
  /** The trace document. */
  uri: string;
  /** Rule files (URIs) chosen for it with "Check with Rules…"; empty to unbind. */
  rules: string[];
}

/** Binds rule files to one trace (besides the policies setting and the open rule files); answers how many were read. */
export const RulesForTraceRequest: RequestType<RulesForTraceParams, { bound: number; problems: string[] }> = { method: 'agentTraces/rulesForTrace' };

export interface VisibleRulesParams {
  /** Rule files (URIs) shown in an editor now. */
  uris: string[];
}

/**
 * Sent by the client whenever the rule files shown in its editors change: those are the rule files "beside" the open
 * traces that apply to them. A client that never sends it has every open rule file applied.
 */
export const VisibleRulesNotification: NotificationType<VisibleRulesParams> = { method: 'agentTraces/visibleRules' };

/** What the client tells the server in `initialize`'s initializationOptions. */
export interface InitializationOptions {
  /**
   * False when the editor's workspace is not trusted (VS Code's Restricted Mode): rule files are then evaluated only
   * when the user asks (EvaluateRulesRequest, RulesForTraceRequest). Absent, as from clients that know no workspace
   * trust: trusted.
   */
  workspaceTrusted?: boolean;
}

export interface WorkspaceTrustParams {
  trusted: boolean;
}

/** Sent by the client when the user trusts the workspace (VS Code reloads the window when trust is taken back). */
export const WorkspaceTrustNotification: NotificationType<WorkspaceTrustParams> = { method: 'agentTraces/workspaceTrust' };

export interface EvaluateRulesParams {
  /** Rule files (URIs) to evaluate; absent: every rule file that applies to an open trace now. */
  rules?: string[];
}

/**
 * The user asks for rule files to be evaluated on the traces they apply to (in an untrusted workspace, the only way
 * they are); answers how many rule files that allowed and on how many open traces they apply.
 */
export const EvaluateRulesRequest: RequestType<EvaluateRulesParams, { rules: number; traces: number }> = { method: 'agentTraces/evaluateRules' };

/** A place in a document, as LSP writes it (0-based lines, UTF-16 characters). */
export interface DocumentLocation {
  uri: string;
  range: LineRange;
}

export interface RuleTestsListParams {
  /** A rule-test manifest (`X.tests.json`), open or on disk. */
  uri: string;
}

export interface RuleTestCaseItem {
  index: number;
  name: string;
  /** The case's name in the manifest. */
  range: LineRange;
  skipped: boolean;
}

export interface RuleTestsList {
  uri: string;
  /** The rule file the manifest tests, and the line of its first rule (where the gutter runs its tests). */
  rules?: DocumentLocation;
  cases: RuleTestCaseItem[];
  /** Why the manifest cannot run (it does not parse). */
  problem?: string;
}

/** The cases of a rule-test manifest, for the Test Explorer. */
export const RuleTestsListRequest: RequestType<RuleTestsListParams, RuleTestsList> = { method: 'agentTraces/ruleTests/list' };

export interface RuleTestsRunParams {
  uri: string;
  /** Case indexes to run; absent: every case. */
  cases?: number[];
}

export interface RuleTestFailure {
  kind: 'missing' | 'unexpected' | 'error';
  text: string;
  /** In the trace: the unexpected violation, or where the missing one was expected. */
  location?: DocumentLocation;
}

export interface RuleTestCaseResult {
  index: number;
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  durationMs: number;
  failures: RuleTestFailure[];
  /** The expected and found violations, one per line: their difference is the failure. */
  expected: string;
  found: string;
  /** Rules not evaluated on the case's trace (a detector the evaluator does not run). */
  notes: string[];
  /** Where the case's trace starts (its file, or the manifest for an inline trace). */
  trace?: DocumentLocation;
}

export interface RuleCoverageEntry {
  /** 1-based line of the rule's raise, and its header's range in the rule file. */
  line: number;
  range: LineRange;
  label: string;
  /** Cases it fired in. */
  cases: number;
}

export interface RuleTestsRun {
  uri: string;
  problem?: string;
  cases: RuleTestCaseResult[];
  coverage?: { rulesUri: string; cases: number; rules: RuleCoverageEntry[] };
}

/**
 * Runs a manifest's cases (the server computes; the Test Explorer shows): each case's status, failures at their
 * places in the trace, and what each rule of the rule file fired in. The rule file then shows the counts as code
 * lenses, and rules the cases never exercised faded.
 */
export const RuleTestsRunRequest: RequestType<RuleTestsRunParams, RuleTestsRun> = { method: 'agentTraces/ruleTests/run' };

export interface RuleChoice {
  ruleUri: string;
  ruleIndex: number;
  /** 1-based line of its raise. */
  line: number;
  label: string;
  /** The variable the element would be bound to; absent with `reason` when none fits. */
  variable?: string;
  reason?: string;
}

export interface ExplainChoicesParams {
  /** A trace document and a position in it: the event or tool call there. */
  uri: string;
  position: { line: number; character: number };
}

export interface ExplainChoices {
  /** The event or tool call at the position (its address and range), if there is one. */
  element?: { address: string; label: string; range: LineRange };
  /** Rules of the rule files that apply to the trace, and of the open ones. */
  rules: RuleChoice[];
  /** Why there is no element at the position (no trace there, or no event or call). */
  problem?: string;
}

/** "Why not here?", step one: the element at the cursor and the rules that could be explained on it. */
export const ExplainChoicesRequest: RequestType<ExplainChoicesParams, ExplainChoices> = { method: 'agentTraces/explain/choices' };

export interface ExplainRuleParams extends ExplainChoicesParams {
  ruleUri: string;
  ruleIndex: number;
}

export type ExplainRuleResult = {
  /** The element's range in the trace (where the explanation is shown). */
  range: LineRange;
  wouldFire: boolean;
  /** The explanation, with links to the rule's lines and the trace elements it names. */
  markdown: string;
} | {
  /** Why the rule could not be asked about there (no element at the position, the rule file not open). */
  problem: string;
};

/** "Why not here?": the rule evaluated with the element bound to its first variable of that type (see guardrail/evaluate/explain.ts). */
export const ExplainRuleRequest: RequestType<ExplainRuleParams, ExplainRuleResult> = { method: 'agentTraces/explain/rule' };

export interface ExplainTargetsParams {
  ruleUri: string;
  ruleIndex: number;
}

export interface ExplainTargets {
  /** Per open trace: the elements a variable of the rule could be bound to (up to 2,000 per trace). */
  traces: { uri: string; label: string; elements: { address: string; label: string; range: LineRange }[] }[];
  /** Why there is nothing to choose from, if so. */
  reason?: string;
}

/** For the code action on a rule: the trace elements it can be explained on. */
export const ExplainTargetsRequest: RequestType<ExplainTargetsParams, ExplainTargets> = { method: 'agentTraces/explain/targets' };

export interface RuleCompareParams {
  /** The rule file (its current text: open or on disk). */
  uri: string;
  /** The old version's text (the committed one). */
  oldText: string;
}

export interface RuleCompareViolation {
  message: string;
  /** 1-based line of the raise in its version. */
  rule: number;
  location: DocumentLocation;
}

export interface RuleCompareFlip {
  uri: string;
  /** 1-based line of a dataset line. */
  line?: number;
  added: RuleCompareViolation[];
  removed: RuleCompareViolation[];
  oldError?: string;
  newError?: string;
}

export interface RuleCompareResult {
  /** Traces evaluated by both versions, and the files they are in. */
  traces: number;
  files: number;
  flips: RuleCompareFlip[];
  /** Set when not every trace file of the workspace was read (a limit), naming the setting. */
  limitNotice?: string;
  /** Traces neither version could evaluate, for the same reason (the first trace's): no verdict to compare. */
  notEvaluated?: { traces: number; reason: string };
  /** Why nothing was compared (a version does not load). */
  problem?: string;
}

/** What a rule file's change flips over the workspace's traces (see rulesOnTraces/compare.ts). */
export const RuleCompareRequest: RequestType<RuleCompareParams, RuleCompareResult> = { method: 'agentTraces/rules/compare' };

interface Cancellable {
  readonly isCancellationRequested: boolean;
}

/** The part of a JSON-RPC connection (the client's LanguageClient, the server's Connection) these functions use; its untyped overloads take `any`. */
export interface Endpoint<Registration = unknown> {
  sendRequest<R>(method: string, params?: unknown): Promise<R>;
  sendNotification(method: string, params?: unknown): Promise<void> | void;
  onRequest(method: string, handler: (params: any, token: Cancellable) => any): Registration;
  onNotification(method: string, handler: (...params: any[]) => void): Registration;
}

export function sendRequest<P, R>(to: Pick<Endpoint, 'sendRequest'>, type: RequestType<P, R>, params: P): Promise<R> {
  return to.sendRequest<R>(type.method, params);
}

export function sendNotification<P>(to: Pick<Endpoint, 'sendNotification'>, type: NotificationType<P>, params: P): Promise<void> | void {
  return to.sendNotification(type.method, params);
}

/** `handler` may also answer with an error (e.g. a cancelled request's ResponseError), which is not a Result. */
export function onRequest<P, R, E, D>(
  on: Pick<Endpoint<D>, 'onRequest'>, type: RequestType<P, R>, handler: (params: P, token: Cancellable) => R | E | Promise<R | E>,
): D {
  return on.onRequest(type.method, handler);
}

export function onNotification<P, D>(on: Pick<Endpoint<D>, 'onNotification'>, type: NotificationType<P>, handler: (params: P) => void): D {
  return on.onNotification(type.method, handler);
}

/**
 * Commands the server's code lenses name and the client registers: reveal a node of the preview (a trace file's or a
 * dataset line's event with calls: uri, offset), show violations of a rule (uri, position, locations), and evaluate
 * rules when the user asks (in an untrusted workspace).
 */
export const RevealInPreviewCommand = 'agentTraces.revealInPreview';
export const RevealLocationsCommand = 'agentTraces.revealLocations';
/** Evaluate rule files on the open traces (a rule file's URI, or none: every rule file that applies): EvaluateRulesRequest. */
export const EvaluateRulesCommand = 'agentTraces.evaluateRules';
/** "Why not here?" from a rule: the rule file's URI and the rule's index; the client asks for the trace element. */
export const ExplainRuleOnTraceCommand = 'agentTraces.explainRuleOnTrace';

export interface ConvertToTraceParams {
  /** An open document (a Claude Code session). */
  uri: string;
  /** Replace what looks like a secret and home folders with placeholders. */
  redact?: boolean;
}

export interface ConvertToTraceResult {
  /** The trace file's text; absent when the document does not convert (then `error` says why). */
  text?: string;
  /** The file name to write it under, beside the document (`<name>.trace.json`). */
  fileName?: string;
  error?: string;
  /** What the user should know: lines left out of the conversion. */
  warnings: string[];
  /** Each replacement made by redact, as one line (`anthropic-key at messages.0.content: sk-a… → <redacted:anthropic-key>`). */
  replaced: string[];
}

/** The Invariant trace of an open document in another format, to write beside it as a fixture. */
export const ConvertToTraceRequest: RequestType<ConvertToTraceParams, ConvertToTraceResult> = { method: 'agentTraces/convertToTrace' };

/**
 * The Inspect AI log an `.eval` archive holds, as the JSON text the editor shows and the server's features read. The
 * client reads the archive's bytes (from any file system the workspace has) and sends them; the server inflates them
 * within its limits.
 */
export interface InspectArchiveTextParams {
  /** The archive's URI, for messages. */
  uri: string;
  /** The archive's bytes, in base64. */
  bytes: string;
}

export type InspectArchiveText = { text: string; samples: number } | { reason: string };

export const InspectArchiveTextRequest: RequestType<InspectArchiveTextParams, InspectArchiveText> = { method: 'agentTraces/inspectArchiveText' };
