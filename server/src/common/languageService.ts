import type {
  CodeFix, CompletionEntry, GuardrailResults, InlayLabel, Lens, FoldingSpan, Highlight, HoverResult, OutlineItem, Problem, PythonModules, Span, Target,
  RenameResult, RuleCoverageResults, RuleTestFiles, TextEditSpan,
  WorkspaceTools,
} from './types';
import type { GraphData, LineRange } from '../../../shared/protocol';
import type { Budget } from './budget';
import type { TextSource } from './textSource';

/** The text of one document version, as the server, the CLI and the tests hand it to a service. */
export interface DocumentInput {
  uri: string;
  version: number;
  text: string;
  /**
   * The same text as the editor keeps it (see TextSource): reading part of an edited big document through it costs
   * no copy of the whole, which `text` makes. Services that read only what an edit touched use it when present.
   */
  source?: TextSource;
  /** When the parse should stop early (a request's cancellation and time budget); absent for no limit. */
  budget?: Budget;
  /** JSON Lines: lines after this many are not read (the model says how many were left out). */
  maxLines?: number;
  /** JSON Lines: the 0-based number of the text's first line, for a big file read in parts (the command line streams). */
  firstLine?: number;
  /** JSON Lines: outline entries listed before a last entry says how many more there are. */
  maxOutlineEntries?: number;
  /** JSON Lines: per-line trace models kept (the most recently used); others are parsed again when needed. */
  cachedLineModels?: number;
}

/** One edit as offsets: text[start, oldEnd) of the previous version became text[start, newEnd) of the new one. */
export interface TextChange {
  start: number;
  oldEnd: number;
  newEnd: number;
}

export interface Settings {
  /** At most this many problems are reported per document; a notice says when more were found. */
  maxProblems: number;
  /** Rule files: top-level outline entries listed before a last entry says how many more there are. */
  maxRuleOutlineEntries?: number;
  /** Report keys the trace format does not define (as hints). */
  unknownKeyHints: boolean;
  inlayHints: {
    /** After each `tool_call_id`: the tool and event of the call it answers. */
    callTargets: boolean;
    /** After each call's `id`: the events of its outputs, or that none answers it. */
    callAnswers: boolean;
    /** After each call: how long it took to its output, where the format records times. */
    durations?: boolean;
  };
  /** Code lenses on events with calls: at most this many per trace file (a dataset: over its lines together); lenses say when more exist. */
  maxCodeLenses: number;
  preview: {
    /** At most this many graph nodes are sent to the preview; a notice says when more exist. */
    maxNodes: number;
    /** Node text is cut at this many characters in the preview. */
    maxTextLength: number;
    /** At most this many rows of an agentguard log's timeline (each carries its line's text). */
    maxLogEntries?: number;
  };
}

export const defaultSettings: Settings = {
  maxProblems: 1000,
  maxRuleOutlineEntries: 10_000,
  unknownKeyHints: true,
  inlayHints: { callTargets: true, callAnswers: true, durations: false },
  maxCodeLenses: 2000,
  preview: { maxNodes: 50_000, maxTextLength: 4000, maxLogEntries: 20_000 },
};

export interface ServiceContext {
  settings: Settings;
  /** Tool names called by the workspace's trace files (for `tool:name` in rules). */
  workspaceTools?: WorkspaceTools;
  /** When long work for this request should stop (cancellation, time budget); absent for no limit. */
  budget?: Budget;
  /**
   * A dataset checked in parts (the CLI streams it): what the parts before this one hold that the rules between
   * lines need (the metadata row, the file's kind of trace, the indexes used); updated with this part's lines.
   */
  datasetCarry?: DatasetCarry;
  /** Python module files in the configured folders (for imports of modules outside the standard library). */
  pythonModules?: PythonModules;
  /** Results of rule files evaluated on the open traces (rule files' code lenses). */
  guardrailResults?: GuardrailResults;
  /** Whether a file exists (a session's subagent file beside it), for navigation to it; absent: not known. */
  files?: FileProbe;
  /** The files rule-test manifests name: whether they exist, and the rule file's text. */
  ruleTestFiles?: RuleTestFiles;
  /** What the last run of a rule file's tests found per rule (its code lenses, and the rules it never exercised). */
  ruleCoverage?: RuleCoverageResults;
}

/** Asks whether a file exists, without reading it (the server looks at the disk, tests at a list). */
export interface FileProbe {
  exists(uri: string): boolean;
}

export interface GraphOptions {
  traceIndex?: number;
  cursorOffset?: number;
  /** The document's problems as validate gave them (the server keeps them with the parsed version); found here when absent. */
  problems?: Problem[];
  toRange(span: Span): LineRange;
}

/** The problems a check has found so far: how many, and the list as the finished check would give it (sorted, capped). */
export interface ProblemsSoFar {
  readonly count: number;
  list(): Problem[];
}

/**
 * One language's features over a parsed model. `parse` runs once per document version (the caller caches
 * the model); every other function is pure and works from the model's indexes.
 */
export interface LanguageService<Model> {
  parse(doc: DocumentInput): Model;
  validate(model: Model, context: ServiceContext): Problem[];
  /**
   * The model of an edited version built from the previous version's model (parsed with the same limits), which it
   * takes over (it must not be used afterwards); it must equal what parse gives for that text. `change` covers
   * every edit since `previous` when the editor's edits are known; without it a language may find the changed
   * range itself. Undefined when only reading the whole text is sure to give the right model. A BudgetExceeded it
   * throws (the request stopped) leaves `previous` as it was. Left out by languages that always read it all.
   */
  reparse?(previous: Model, doc: DocumentInput, change: TextChange | undefined): Model | undefined;
  /**
   * The same parse and check, in slices of about `sliceMs` that each end with `pause()`, for languages whose
   * documents can be big enough to hold up every other request (the server uses them above a size). `found`, when
   * given, hears of the problems found so far each time a part of the document has been checked (a sample of a log),
   * so that an editor can show them before the whole check ends.
   */
  parseInSlices?(doc: DocumentInput, pause: () => Promise<void>, sliceMs: number): Promise<Model>;
  validateInSlices?(model: Model, context: ServiceContext, pause: () => Promise<void>, sliceMs: number, found?: (soFar: ProblemsSoFar) => void): Promise<Problem[]>;
  hover(model: Model, offset: number, context: ServiceContext): HoverResult | null;
  definition(model: Model, offset: number, context?: ServiceContext): Target[];
  references(model: Model, offset: number, includeDeclaration: boolean): Target[];
  highlights(model: Model, offset: number): Highlight[];
  /** `settings`: the outline caps (rule files: `maxRuleOutlineEntries`); the defaults when absent. */
  symbols(model: Model, budget?: Budget, settings?: Settings): OutlineItem[];
  folding(model: Model): FoldingSpan[];
  completion(model: Model, offset: number, context: ServiceContext): CompletionEntry[];
  /** The span to rename at offset, or null when nothing there can be renamed. */
  prepareRename?(model: Model, offset: number): Span | null;
  /** Why the offset cannot be renamed, when the user may expect it can (the editor shows it). */
  renameRefusal?(model: Model, offset: number): string | undefined;
  /** The edits of a rename, or why this new name is refused (the editor shows it); null when nothing there can be renamed. */
  rename?(model: Model, offset: number, newName: string): RenameResult | null;
  graph?(model: Model, options: GraphOptions, context: ServiceContext): GraphData;
  /** Quick fixes for these problems (the document's, as validate gave them), each tied to the one it repairs. */
  codeFixes?(model: Model, problems: Problem[]): CodeFix[];
  /**
   * Whether the document with these edits applied reads without a syntax error (`json/syntax`, `gr/syntax`): the
   * editor offers fix-all and marks a fix preferred only then. `budget` stops the check (BudgetExceeded).
   */
  parsesWithEdits?(model: Model, edits: readonly TextEditSpan[], budget?: Budget): boolean;
  /** Rewrites offered at a span whatever the problems (e.g. a trace's arguments as object or string). */
  refactorings?(model: Model, span: Span): CodeFix[];
  /** Inlay labels inside a span (the visible range): computed for that span only. */
  inlayHints?(model: Model, span: Span, context: ServiceContext): InlayLabel[];
  /** Code lenses of the document (e.g. a trace event's calls and outputs, a rule's results). */
  codeLenses?(model: Model, context: ServiceContext): Lens[];
  /** How often each tool is called in the document (trace languages), for the workspace's tool index. */
  calledTools?(model: Model): Map<string, number>;
}

/** A line of an earlier part of a dataset checked in parts: its number (0-based) and kind, without its text. */
export interface EarlierLine {
  number: number;
  kind: string;
}

/**
 * What the rules between a dataset's lines know of the parts before the one being checked (jsonl/dataset/validate.ts).
 * Every rule holds across parts but one: a line without an index is reported only when an indexed line comes before
 * it, or in its own part.
 */
export interface DatasetCarry {
  contentSeen: boolean;
  metadataLine?: EarlierLine;
  firstTraceLine?: EarlierLine;
  /** Each integer index used, with the number of the line that used it first. */
  indexes: Map<string, number>;
  /** At most this many indexes are kept in `indexes`, so that a stream of any length holds a bounded set; absent: all. */
  maxIndexes?: number;
  /** Set once an index was left out of `indexes` for `maxIndexes` (and the notice that says so was given). */
  indexesLeftOut?: boolean;
  firstIndexedLine?: EarlierLine;
}
