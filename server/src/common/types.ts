/**
 * Editor-neutral result types shared by every language service.
 * Positions are UTF-16 offsets into the document text (the unit of JS strings and of LSP);
 * the server converts them to line/character at the protocol boundary.
 */

export interface Span {
  start: number;
  end: number;
}

export type Severity = 'error' | 'warning' | 'information' | 'hint';

export interface RelatedInfo {
  span: Span;
  message: string;
}

export interface Problem {
  span: Span;
  severity: Severity;
  /** Stable, documented identifier such as `trace/unknown-call-id` or `gr/unknown-type`. */
  code: string;
  message: string;
  related?: RelatedInfo[];
  /** Rendered faded (e.g. unused code). */
  unnecessary?: boolean;
  /** A did-you-mean replacement for the text of the span (the quick fix offers it). */
  suggestion?: string;
  /** A guardrail violation's bindings: the trace element each variable of the rule was bound to (the preview marks them). */
  bound?: { variable: string; span: Span }[];
  /**
   * Shown only once the document has stayed unchanged this many milliseconds (a last line still being written);
   * a checker reading a file at rest reports it at once.
   */
  settleMs?: number;
}

export interface HoverResult {
  span: Span;
  markdown: string;
}

/** A target location; `uri` is absent when it is in the same document. */
export interface Target {
  uri?: string;
  span: Span;
  /** The part to select on arrival (e.g. the name inside a declaration). */
  selection?: Span;
  /** For a target in another file: positions in that file (spans are offsets in it). */
  positions?: { positionAt(offset: number): { line: number; character: number } };
}

export type HighlightKind = 'read' | 'write' | 'text';

export interface Highlight {
  span: Span;
  kind: HighlightKind;
}

export type OutlineKind =
  | 'event' | 'message' | 'call' | 'output' | 'tools' | 'trace' | 'metadata'
  | 'rule' | 'predicate' | 'constant' | 'import' | 'function' | 'variable';

export interface OutlineItem {
  name: string;
  detail?: string;
  kind: OutlineKind;
  span: Span;
  selection: Span;
  children?: OutlineItem[];
}

export interface FoldingSpan {
  start: number;
  end: number;
}

export type CompletionKind =
  | 'property' | 'value' | 'keyword' | 'snippet' | 'type' | 'field' | 'function'
  | 'variable' | 'constant' | 'module' | 'reference' | 'enum';

export interface CompletionEntry {
  label: string;
  kind: CompletionKind;
  detail?: string;
  documentation?: string;
  /** Text to insert; defaults to label. With `snippet`, uses LSP snippet syntax ($1, ${1:x}). */
  insertText?: string;
  snippet?: boolean;
  /** The text the insertion replaces; defaults to the word at the cursor. */
  replace?: Span;
  sortText?: string;
  filterText?: string;
}

export interface TextEditSpan {
  span: Span;
  newText: string;
}

/** A rename's edits, or why it is refused (the editor shows the reason instead of renaming). */
export type RenameResult = { edits: TextEditSpan[] } | { refusal: string };

/** Anything that can tell which trace files in the workspace call a tool (used by rule hover/completion). */
export interface ToolUsage {
  name: string;
  files: { uri: string; count: number }[];
}

export interface WorkspaceTools {
  tools(): ToolUsage[];
  /** True when the index stopped at its file limit (a notice is shown). */
  truncated: boolean;
}

/**
 * Python module files that rule files import, searched in the folders the user configured
 * (`agentTraces.guardrails.pythonPaths`). Implemented by the server and the CLI over the file system, by tests in
 * memory.
 */
export interface PythonModules {
  /** The file of a dotted module (`a/b/c.py`, else `a/b/c/__init__.py`) in the first folder holding one. */
  find(module: string): PythonModuleFile | undefined;
  /** The folders searched, as the user wrote them (for messages); empty when none are configured. */
  readonly folders: readonly string[];
  /** Why no module can be read here at all (VS Code for the Web), said instead of "not found". */
  readonly unavailable?: string;
}

export interface PythonModuleFile {
  uri: string;
  /** The path as shown to the user (relative to its workspace folder when inside one). */
  path: string;
  /** The file's text, or undefined when it is larger than `limit` bytes and was not read. */
  text?: string;
  size: number;
  limit: number;
}

/** `quickfix` repairs a problem; `refactor.rewrite` rewrites valid text another valid way. */
export type CodeFixKind = 'quickfix' | 'refactor.rewrite';

/** One code action a service offers: edits to the document, tied to the problem it repairs (when it repairs one). */
export interface CodeFix {
  title: string;
  kind: CodeFixKind;
  /** The problem it repairs (identified by its code and span); absent for refactorings. */
  problem?: Problem;
  edits: TextEditSpan[];
  /** Safe without a choice: applied by "fix all", fix-on-save and `agent-traces check --fix`. */
  safe: boolean;
  /** The one to pick first (the lightbulb's default). */
  preferred?: boolean;
  /** The edits' new text is in snippet syntax ($0 marks the cursor). */
  snippet?: boolean;
}

/** A label drawn in the text after `offset` (an inlay hint), e.g. where a tool output's call is. */
export interface InlayLabel {
  offset: number;
  label: string;
  tooltip?: string;
}

/**
 * A code lens above a span: its title, and what clicking it does: run `command` (with its arguments), or reveal
 * `targets`.
 */
export interface Lens {
  span: Span;
  title: string;
  command?: { id: string; arguments: unknown[] };
  targets?: Target[];
}

/** How each rule of a rule file fared on the traces it was evaluated on (the server keeps these; see rulesOnTraces/). */
export interface RuleFileResults {
  /**
   * Per rule index: violations, the traces that have one, where they are, why it was not evaluated (if so) and on
   * how many trace files, and whether it stopped at the violation limit on some trace (then it has more).
   */
  rule(ruleIndex: number): {
    violations: number; traces: number; targets: Target[]; reason?: string; limited?: boolean;
    /** Trace files the rule was not evaluated on (for `reason`, the first such reason). */
    unevaluated: number;
    /** Traces on which the rule ran past its time limit, and the files they are in (URIs). */
    timedOut: number;
    timedOutFiles: string[];
  };
  /** Why the whole file was not evaluated on some trace (a failure, a trace that is not JSON), if so. */
  fileReason?: string;
  /** Open trace documents the rules were evaluated on. */
  documents: number;
  /** Trace files of the workspace, not open, the rules were evaluated on (up to agentTraces.guardrails.maxLensTraces). */
  workspaceFiles?: number;
  /** Set when some traces were left out (a limit), naming the setting. */
  limitNotice?: string;
  /** Set when the file is not evaluated until the user asks (an untrusted workspace). */
  awaitsRequest?: boolean;
}

export interface GuardrailResults {
  forRuleFile(uri: string): RuleFileResults | undefined;
}

/**
 * What checking a rule-test manifest needs beyond its text: whether the files it names exist, and its rule file.
 * The server answers from the open documents and the disk (read before the check), the command line from the disk,
 * tests from memory; absent, those checks are not made.
 */
export interface RuleTestFiles {
  /** Whether a file exists; undefined when that is not known (not a file URI, outside the workspace). */
  exists(uri: string): boolean | undefined;
  /** The text of the rule file at `uri`; undefined when it cannot be read. */
  ruleFileText(uri: string): string | undefined;
}

/** Per rule of a rule file, the cases of its tests it fired in, as the last run of its tests found (see testRuns/). */
export interface RuleFileCoverage {
  /** Cases run and judged. */
  cases: number;
  /** The manifests run (their file names), for the lens to name. */
  manifests: string[];
  /** Per rule, by the text of its raise header when the tests ran: cases it fired in. */
  rules: { header: string; cases: number }[];
}

export interface RuleCoverageResults {
  forRuleFile(uri: string): RuleFileCoverage | undefined;
}
