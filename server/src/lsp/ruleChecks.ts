import type { Diagnostic, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { BudgetExceeded, type Budget } from '../common/budget';
import type { GuardrailResults, Problem, Severity } from '../common/types';
import { sliceFromLength } from '../common/steps';
import { bytesPerMB } from '../disk/files';
import type { DocumentModels } from './documentModels';
import type { RuleModel } from '../guardrail';
import { evaluationProblems } from '../guardrail/evaluationProblems';
import { RuleBindings } from '../rulesOnTraces/bindings';
import { EvaluationConsent, withheldNotice } from '../rulesOnTraces/consent';
import type { RuleFile, RulesOnTraceResult } from '../rulesOnTraces/evaluateOnTrace';
import { EvaluationWorkers } from '../rulesOnTraces/evaluationWorkers';
import { addComparison, type Comparison } from '../rulesOnTraces/comparison';
import type { TraceDocument } from '../rulesOnTraces/compareWorkspace';
import { TraceResults, addPart } from '../rulesOnTraces/results';
import { platformWorkerLauncher, type WorkerLauncher } from '../rulesOnTraces/workerLauncher';
import type { CaseEvaluation, CaseOptions, ExplainAnswer, RuleSource } from '../rulesOnTraces/workerProtocol';
import { evaluateWorkspaceTraces } from '../rulesOnTraces/workspaceTraces';
import { toDiagnostic } from './toProtocol';
import type { ServerSettings } from '../settings';
import { layoutName, type TraceLayout } from '../traceFormats';

/** What the server lends the rule checks: its documents and models, settings, log and the lens refresh. */
export interface RuleCheckHost {
  documents: TextDocuments<TextDocument>;
  models: DocumentModels;
  settings(): ServerSettings;
  workspaceFolderPaths(): string[];
  info(message: string): void;
  logFailure(feature: string, uri: string, version: number | undefined, error: unknown): void;
  refreshCodeLenses(): void;
  publishDiagnostics(uri: string, version: number, diagnostics: Diagnostic[]): void;
  /** Starts the workers rules are evaluated on (Node worker threads unless given). */
  launchWorker?: WorkerLauncher;
}

/** A rule file's own diagnostics as its last check found them: its evaluation's are added when they change. */
interface RuleFileCheck {
  document: TextDocument;
  version: number;
  model: RuleModel;
  diagnostics: Diagnostic[];
}

/** What the rules that apply to a trace found on it. */
export interface RuleFindings {
  /** Notices about the rules themselves: those withheld from evaluation in an untrusted workspace. */
  notices: Problem[];
  /** What the evaluated rules found, and the severity their violations are shown with; none when none was evaluated. */
  evaluated?: { result: RulesOnTraceResult; rules: RuleFile[]; severity: Severity };
}

/**
 * The server's side of guardrail rules on traces (server/src/rulesOnTraces/): which rule files apply, each open
 * trace's evaluation (one at a time per trace, stopped by a newer one), and the count over the workspace's other
 * trace files for the rule files' lenses.
 */
export class RuleChecks {
  readonly bindings = new RuleBindings();
  readonly results = new TraceResults();
  /** In an untrusted workspace, which rule files the user asked to evaluate. */
  readonly consent = new EvaluationConsent();
  /** What the rule files' lenses show: their results, or that they wait for the user to ask. */
  readonly lensResults: GuardrailResults = {
    forRuleFile: (uri) => (this.consent.allows(uri) ? this.results.forRuleFile(uri) : { ...this.results.forRuleFile(uri), awaitsRequest: true }),
  };
  /** The evaluation under way per trace: a newer one of the same trace, an edit or a close cancels it. */
  private readonly evaluations = new Map<string, object>();
  /** Rule files shown in the client's editors; undefined: every open one. */
  private visibleRules: Set<string> | undefined;
  private workspaceCount: NodeJS.Timeout | undefined;
  private workspaceGeneration = 0;
  /**
   * Rules run on worker threads, never on the server's own: open traces on one, the workspace count for the lenses
   * on another, so that neither waits behind the other. Each is started on first use.
   */
  private workers: { open?: EvaluationWorkers; workspace?: EvaluationWorkers } = {};
  private readonly ruleFileChecks = new Map<string, RuleFileCheck>();

  constructor(private readonly host: RuleCheckHost) {}

  setVisibleRules(uris: string[]): void {
    this.visibleRules = new Set(uris);
  }

  forget(uri: string): void {
    if (this.results.delete(uri)) this.resultsChanged();
    this.bindings.forget(uri);
    this.ruleFileChecks.delete(uri);
  }

  /**
   * Publishes a rule file's diagnostics: those of its check, and the warnings its evaluation on traces adds (a rule
   * that ran past its time limit); published again whenever the evaluation's results change.
   */
  publishRuleFile(document: TextDocument, model: RuleModel, diagnostics: Diagnostic[]): void {
    const check = { document, version: document.version, model, diagnostics };
    this.ruleFileChecks.set(document.uri, check);
    this.publish(check);
  }

  private publish(check: RuleFileCheck): void {
    const problems = evaluationProblems(check.model, this.results.forRuleFile(check.document.uri), this.host.settings().guardrails.timeout);
    const evaluation = problems.map((problem) => toDiagnostic(check.document, check.document.uri, problem));
    this.host.publishDiagnostics(check.document.uri, check.version, [...check.diagnostics, ...evaluation]);
  }

  /** The lenses and the rule files' evaluation warnings follow the results. */
  private resultsChanged(): void {
    this.host.refreshCodeLenses();
    for (const [uri, check] of this.ruleFileChecks) {
      if (this.host.documents.get(uri) !== check.document || check.document.version !== check.version) continue;
      this.publish(check);
    }
  }

  /** A rule test's case, on the worker of the open documents (its time limit is the rules' own). */
  evaluateCase(rules: RuleSource, trace: unknown, options: CaseOptions, isCancelled: () => boolean): Promise<CaseEvaluation | undefined> {
    return this.worker('open').evaluateCase(rules, trace, options, isCancelled);
  }

  /**
   * Two versions of a rule file on one document (what a change flips), on the worker of the open documents, with
   * the rules' work budget and time limit; undefined when cancelled.
   */
  async compareVersions(rules: [RuleSource, RuleSource], document: TraceDocument, isCancelled: () => boolean): Promise<Comparison | undefined> {
    const { guardrails } = this.host.settings();
    const comparison: Comparison = { traces: 0, flips: [], unreadable: [] };
    const job = {
      kind: 'compare' as const, rules, text: document.text, layout: layoutName(document.layout), path: document.path,
      options: { parameters: guardrails.parameters, budget: guardrails.workBudget, timeLimitMs: guardrails.timeout },
    };
    const outcome = await this.worker('open').run(job, (part) => addComparison(comparison, part), isCancelled);
    return outcome === 'done' ? comparison : undefined;
  }

  /** "Why not here?" on the worker of the open documents, with the rules' work budget and time limit; undefined when cancelled. */
  async explainOnWorker(
    rule: RuleSource, trace: { uri: string; text: string; layout: TraceLayout }, offset: number, ruleIndex: number, isCancelled: () => boolean,
  ): Promise<ExplainAnswer | undefined> {
    const { guardrails } = this.host.settings();
    let answer: ExplainAnswer | undefined;
    const job = {
      kind: 'explain' as const, rules: [rule] as [RuleSource], text: trace.text, layout: layoutName(trace.layout), path: trace.uri, traceUri: trace.uri,
      offset, ruleIndex, options: { parameters: guardrails.parameters, budget: guardrails.workBudget, timeLimitMs: guardrails.timeout },
    };
    const outcome = await this.worker('open').run(job, (part) => (answer = part), isCancelled);
    return outcome === 'done' ? answer : undefined;
  }

  private worker(which: 'open' | 'workspace'): EvaluationWorkers {
    return (this.workers[which] ??= new EvaluationWorkers(this.host.launchWorker ?? platformWorkerLauncher({ yieldToServer: true }), (message) => this.host.info(message)));
  }

  /** The rule files evaluated on a document's text, on a worker; undefined when `isCancelled` stopped it first. */
  private async evaluate(
    which: 'open' | 'workspace', rules: RuleFile[], text: string, layout: TraceLayout, path: string, isCancelled: () => boolean,
  ): Promise<RulesOnTraceResult | undefined> {
    const { guardrails, maxProblems } = this.host.settings();
    const result: RulesOnTraceResult = { violations: [], notices: [], outcomes: new Map(), traces: 0 };
    const job = {
      kind: 'document' as const, rules: rules.map((rule) => ({ uri: rule.uri, text: rule.model.text })), text, layout: layoutName(layout), path,
      options: { workBudget: guardrails.workBudget, timeLimitMs: guardrails.timeout, maxViolations: maxProblems, parameters: guardrails.parameters },
    };
    const outcome = await this.worker(which).run(job, (part) => addPart(result, part), isCancelled);
    return outcome === 'done' ? result : undefined;
  }

  /**
   * The rule files a user may ask about on a trace ("why not here?"): those that apply to it, and every open one
   * (shown in an editor or not), whatever Restricted Mode withholds: asking is the user's request.
   */
  rulesToAsk(traceUri: string): RuleFile[] {
    return this.bindings.rulesFor(traceUri, this.openRuleFiles(true));
  }

  private openRuleFiles(evenHidden = false): RuleFile[] {
    const { documents, models } = this.host;
    return documents.all().flatMap((document) => {
      if (!evenHidden && this.visibleRules && !this.visibleRules.has(document.uri)) return [];
      // Only rule files are parsed here: a big trace being read in slices must not be read a second time at once.
      if (models.languageOf(document) !== 'guardrail') return [];
      const parsed = models.get(document);
      return parsed?.languageId === 'guardrail' ? [{ uri: document.uri, model: parsed.model as RuleModel }] : [];
    });
  }

  /**
   * What the rules that apply to a trace document find on it (undefined: no rule applies, or the evaluation failed);
   * its results are kept for the rule files' code lenses. The trace's own diagnostics are published even when this
   * fails; a stopped evaluation throws BudgetExceeded.
   */
  async checkSafely(document: TextDocument, layout: TraceLayout): Promise<RuleFindings | undefined> {
    try {
      return await this.check(document, layout);
    } catch (error) {
      if (error instanceof BudgetExceeded) throw error;
      this.host.logFailure('guardrails', document.uri, document.version, error);
      return undefined;
    }
  }

  private async check(document: TextDocument, layout: TraceLayout): Promise<RuleFindings | undefined> {
    const { host, evaluations } = this;
    const { allowed: rules, withheld } = this.consent.split(this.bindings.rulesFor(document.uri, this.openRuleFiles()));
    const notices = withheld.length > 0 ? [withheldNotice(withheld)] : [];
    if (rules.length === 0) {
      evaluations.delete(document.uri);
      if (this.results.delete(document.uri)) this.resultsChanged();
      return { notices };
    }
    const { uri, version } = document;
    const run = {};
    evaluations.set(uri, run);
    const budget: Budget = {
      get isCancellationRequested() {
        return evaluations.get(uri) !== run || host.documents.get(uri) !== document || document.version !== version;
      },
    };
    const text = document.getText();
    if (text.length >= sliceFromLength) {
      host.info(`[guardrails] ${uri}@${version}: evaluating ${rules.length} rule file${rules.length === 1 ? '' : 's'} on the evaluation worker, answering other requests meanwhile`);
    }
    let result: RulesOnTraceResult | undefined;
    try {
      result = await this.evaluate('open', rules, text, layout, uri, () => budget.isCancellationRequested);
    } finally {
      if (evaluations.get(uri) === run) evaluations.delete(uri);
    }
    if (!result) {
      host.info(`[guardrails] ${uri}@${version}: evaluation stopped (a newer version, a closed file or changed rules superseded it)`);
      throw new BudgetExceeded('cancelled');
    }
    this.results.set(uri, result, document);
    this.resultsChanged();
    return { notices, evaluated: { result, rules, severity: host.settings().guardrails.severity } };
  }

  /** The rule files (of `among`, when given) that apply to some open trace now, and to how many open traces. */
  applyingToOpenTraces(among?: ReadonlySet<string>): { rules: string[]; traces: number } {
    const open = this.openRuleFiles();
    const rules = new Set<string>();
    let traces = 0;
    for (const document of this.host.documents.all()) {
      if (this.host.models.languageOf(document) === 'guardrail') continue;
      const applying = this.bindings.rulesFor(document.uri, open).filter((rule) => !among || among.has(rule.uri));
      if (applying.length > 0) traces++;
      for (const rule of applying) rules.add(rule.uri);
    }
    return { rules: [...rules], traces };
  }

  /** The rule files' lenses also count the workspace's trace files that are not open (rulesOnTraces/workspaceTraces.ts). */
  scheduleWorkspaceCount(): void {
    clearTimeout(this.workspaceCount);
    const generation = ++this.workspaceGeneration;
    this.workspaceCount = setTimeout(() => void this.countWorkspaceTraces(generation), this.host.settings().validationDelay);
  }

  private async countWorkspaceTraces(generation: number): Promise<void> {
    const { host } = this;
    const settings = host.settings();
    const open = new Set(host.documents.all().map((document) => document.uri));
    const limits = { maxTraces: settings.guardrails.maxLensTraces, maxBytes: settings.indexMaxFileSizeMB * bytesPerMB, folders: host.workspaceFolderPaths(), maxJsonHeads: settings.workspaceMaxJsonFiles };
    const stale = () => generation !== this.workspaceGeneration;
    try {
      const rules = this.consent.split(this.bindings.rulesForEveryTrace(this.openRuleFiles())).allowed;
      const evaluate = (applied: RuleFile[], text: string, layout: TraceLayout, path: string) => this.evaluate('workspace', applied, text, layout, path, stale);
      const found = await evaluateWorkspaceTraces(rules, open, limits, evaluate, stale);
      if (!found || stale()) return;
      for (const problem of found.problems) host.info(`[guardrails] lens counts left out ${problem}`);
      this.results.setWorkspace(found.entries, found.limitNotice);
      this.resultsChanged();
    } catch (error) {
      host.logFailure('guardrails', 'workspace', generation, error);
    }
  }

  /** The preview marks the nodes with guardrail violations too (in a dataset, those of the line drawn). */
  withViolations(uri: string, problems: Problem[]): Problem[] {
    const violations = this.results.get(uri)?.violations ?? [];
    if (violations.length === 0) return problems;
    const severity = this.host.settings().guardrails.severity;
    return [...problems, ...violations.map((v) => ({ span: v.span, severity, code: v.code, message: v.message, bound: v.bindings }))];
  }
}
