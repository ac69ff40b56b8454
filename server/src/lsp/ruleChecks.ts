import type { TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { BudgetExceeded, type Budget } from '../common/budget';
import type { GuardrailResults, Problem, Severity } from '../common/types';
import { nextTurn, sliceMs } from '../common/steps';
import { bytesPerMB } from '../disk/files';
import type { DocumentModels } from './documentModels';
import type { RuleModel } from '../guardrail';
import { RuleBindings } from '../rulesOnTraces/bindings';
import { EvaluationConsent, withheldNotice } from '../rulesOnTraces/consent';
import type { RuleFile, RulesOnTraceResult } from '../rulesOnTraces/evaluateOnTrace';
import { TraceResults } from '../rulesOnTraces/results';
import type { ServerSettings } from '../settings';
import type { TraceLayout } from '../traceFormats';

/** What the server lends the rule checks: its documents and models, settings, log and the lens refresh. */
export interface RuleCheckHost {
  documents: TextDocuments<TextDocument>;
  models: DocumentModels;
  settings(): ServerSettings;
  workspaceFolderPaths(): string[];
  info(message: string): void;
  logFailure(feature: string, uri: string, version: number | undefined, error: unknown): void;
  refreshCodeLenses(): void;
}

/** What the rules that apply to a trace found on it. */
export interface RuleFindings {
  /** Notices about the rules themselves: those withheld from evaluation in an untrusted workspace. */
  notices: Problem[];
  /** What the evaluated rules found, and the severity their violations are shown with; none when none was evaluated. */
  evaluated?: { result: RulesOnTraceResult; rules: RuleFile[]; severity: Severity };
}

type RulesOnTraces = typeof import('../rulesOnTraces/evaluateOnTrace');
type WorkspaceTraces = typeof import('../rulesOnTraces/workspaceTraces');

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
  /** The evaluation under way per trace: a newer one of the same trace, an edit or a close stops it at its next slice. */
  private readonly evaluations = new Map<string, object>();
  /** Rule files shown in the client's editors; undefined: every open one. */
  private visibleRules: Set<string> | undefined;
  private workspaceCount: NodeJS.Timeout | undefined;
  private workspaceGeneration = 0;
  private evaluator: { onTrace: RulesOnTraces; onWorkspace: WorkspaceTraces } | undefined;

  constructor(private readonly host: RuleCheckHost) {}

  setVisibleRules(uris: string[]): void {
    this.visibleRules = new Set(uris);
  }

  forget(uri: string): void {
    if (this.results.delete(uri)) this.host.refreshCodeLenses();
    this.bindings.forget(uri);
  }

  private openRuleFiles(): RuleFile[] {
    const { documents, models } = this.host;
    return documents.all().flatMap((document) => {
      if (this.visibleRules && !this.visibleRules.has(document.uri)) return [];
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
      if (this.results.delete(document.uri)) host.refreshCodeLenses();
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
    const settings = host.settings();
    // A long evaluation runs in slices that let other requests through; the log says so once, at its second slice.
    let slices = 0;
    const pause = () => {
      if (slices++ === 0) host.info(`[guardrails] ${uri}@${version}: evaluating ${rules.length} rule file${rules.length === 1 ? '' : 's'} in slices, answering other requests in between`);
      return nextTurn();
    };
    let result: RulesOnTraceResult;
    try {
      const options = { workBudget: settings.guardrails.workBudget, maxViolations: settings.maxProblems, budget, path: uri };
      result = await this.rulesOnTraces().onTrace.evaluateRulesOnTraceInSlices(rules, document.getText(), layout, options, pause, sliceMs);
    } catch (error) {
      if (error instanceof BudgetExceeded) host.info(`[guardrails] ${uri}@${version}: evaluation stopped (a newer version, a closed file or changed rules superseded it)`);
      throw error;
    } finally {
      if (evaluations.get(uri) === run) evaluations.delete(uri);
    }
    this.results.set(uri, result, document);
    host.refreshCodeLenses();
    return { notices, evaluated: { result, rules, severity: settings.guardrails.severity } };
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

  /**
   * The rule evaluator (with its Python parser) loads with the first trace that has rules to check, or the first
   * workspace count for a rule file's lenses: a server that only reads traces starts without it. A require (not an import) is what the bundler keeps lazy, in the same bundle.
   */
  private rulesOnTraces(): { onTrace: RulesOnTraces; onWorkspace: WorkspaceTraces } {
    return (this.evaluator ??= {
      onTrace: require('../rulesOnTraces/evaluateOnTrace') as RulesOnTraces,
      onWorkspace: require('../rulesOnTraces/workspaceTraces') as WorkspaceTraces,
    });
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
    const limits = {
      maxTraces: settings.guardrails.maxLensTraces, maxBytes: settings.indexMaxFileSizeMB * bytesPerMB, folders: host.workspaceFolderPaths(),
      workBudget: settings.guardrails.workBudget, maxViolations: settings.maxProblems,
    };
    const stale = () => generation !== this.workspaceGeneration;
    try {
      const rules = this.consent.split(this.bindings.rulesForEveryTrace(this.openRuleFiles())).allowed;
      const found = await this.rulesOnTraces().onWorkspace.evaluateWorkspaceTraces(rules, open, limits, stale);
      if (!found || stale()) return;
      for (const problem of found.problems) host.info(`[guardrails] lens counts left out ${problem}`);
      this.results.setWorkspace(found.entries, found.limitNotice);
      host.refreshCodeLenses();
    } catch (error) {
      host.logFailure('guardrails', 'workspace', generation, error);
    }
  }

  /** The preview marks the nodes with guardrail violations too (in a dataset, those of the line drawn). */
  withViolations(uri: string, problems: Problem[]): Problem[] {
    const violations = this.results.get(uri)?.violations ?? [];
    if (violations.length === 0) return problems;
    const severity = this.host.settings().guardrails.severity;
    return [...problems, ...violations.map((v) => ({ span: v.span, severity, code: v.code, message: v.message }))];
  }
}
