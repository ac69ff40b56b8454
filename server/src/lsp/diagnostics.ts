import type { Diagnostic, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { BudgetExceeded } from '../common/budget';
import type { ProblemsSoFar, ServiceContext } from '../common/languageService';
import { afterEvents, nextTurn } from '../common/steps';
import { traceLayoutOfModel } from '../traceFormats';
import type { RuleModel } from '../guardrail';
import type { ServerSettings } from '../settings';
import { problemsInSlices, type DocumentModels } from './documentModels';
import type { ModelPreparation } from './modelPreparation';
import type { RuleChecks, RuleFindings } from './ruleChecks';
import type { RuleTests } from './ruleTests';
import type { ManifestModel } from '../ruleTests/manifest';
import { toDiagnostic, toGuardrailNoticeDiagnostic, toViolationDiagnostic, type PositionMapper } from './toProtocol';
import { prepareForTyping } from './warmUp';
import type { WorkspaceToolIndex } from './workspaceTools';

/** Milliseconds between two publications of a check's problems found so far. */
const interimEveryMs = 250;

/** What the server lends the diagnostics pipeline: its documents and models, the rule checks, settings and outputs. */
export interface DiagnosticsHost {
  documents: TextDocuments<TextDocument>;
  models: DocumentModels;
  preparation: ModelPreparation;
  rules: RuleChecks;
  /** Rule-test manifests: the files they name are looked at before their check. */
  ruleTests: RuleTests;
  toolIndex: WorkspaceToolIndex;
  settings(): ServerSettings;
  context(): ServiceContext;
  publish(uri: string, version: number | undefined, diagnostics: Diagnostic[]): void;
  /** Tells the client a document's model changed (the preview draws it again). */
  modelChanged(uri: string, version: number): void;
  logFailure(feature: string, uri: string, version: number | undefined, error: unknown): void;
}

/**
 * From an edit to the published diagnostics: each document's check is scheduled (after the typing delay, at once for
 * an opened one), reads and checks a big document in slices, adds the violations of the rules that apply to a trace,
 * converts every problem to an LSP diagnostic, and publishes them only while the version it checked is the latest.
 */
export class DiagnosticsPipeline {
  private readonly pending = new Map<string, NodeJS.Timeout>();
  /** The latest check started per document: a check that is no longer the latest stops at its next pause. */
  private readonly latest = new Map<string, number>();
  private checksStarted = 0;
  /**
   * TextDocuments announces an opened document as changed too: that second event must not put the check of a newly
   * opened document behind the typing delay.
   */
  private readonly openedVersions = new Map<string, number>();

  constructor(private readonly host: DiagnosticsHost) {}

  opened(document: TextDocument): void {
    this.openedVersions.set(document.uri, document.version);
    this.schedule(document, 0);
    const { rules } = this.host;
    if (rules.results.hasWorkspaceFile(document.uri)) rules.scheduleWorkspaceCount(); // its slot goes to another file
  }

  changed(document: TextDocument): void {
    if (this.openedVersions.get(document.uri) === document.version) return;
    this.openedVersions.delete(document.uri);
    this.schedule(document);
    this.host.preparation.schedule(document, this.host.settings().validationDelay);
  }

  closed(document: TextDocument): void {
    const { host } = this;
    const { uri } = document;
    this.openedVersions.delete(uri);
    host.preparation.cancel(uri);
    clearTimeout(this.pending.get(uri));
    this.pending.delete(uri);
    const wasRuleFile = host.models.languageOf(document) === 'guardrail';
    host.models.forget(uri);
    this.latest.delete(uri);
    host.rules.forget(uri);
    if (wasRuleFile) this.recheckTraces();
    else host.rules.scheduleWorkspaceCount(); // a closed trace is counted from its file again
    host.publish(uri, undefined, []);
  }

  /** Every open document again, at once (new settings, or documents opened before the settings arrived). */
  recheckAll(): void {
    for (const document of this.host.documents.all()) this.schedule(document, 0);
  }

  /** The open traces again (the rules that apply to them changed), and the workspace count of the rule lenses. */
  recheckTraces(delay = 0): void {
    const { documents, models, rules } = this.host;
    for (const document of documents.all()) if (models.languageOf(document) !== 'guardrail') this.schedule(document, delay);
    rules.scheduleWorkspaceCount();
  }

  /** The open rule files again (the Python modules they import changed). */
  recheckRuleFiles(): void {
    this.recheckLanguage('guardrail');
  }

  /** The open rule-test manifests again (a rule file or a trace they name changed, or came or went). */
  recheckManifests(): void {
    this.recheckLanguage('rule-tests');
  }

  private recheckLanguage(languageId: string): void {
    const { documents, models } = this.host;
    for (const document of documents.all()) if (models.languageOf(document) === languageId) this.schedule(document, 0);
  }

  schedule(document: TextDocument, delay = this.host.settings().validationDelay): void {
    clearTimeout(this.pending.get(document.uri));
    this.pending.set(document.uri, setTimeout(() => void this.check(document.uri, document.version), delay));
  }

  private async check(uri: string, version: number): Promise<void> {
    const { host } = this;
    this.pending.delete(uri);
    const document = host.documents.get(uri);
    if (!document || document.version !== version) return; // a newer edit has its own check scheduled
    // A second check of the same version (new settings, rules or tools right after a big trace opened) supersedes this
    // one: the two ran side by side, slice for slice, doubling the wait for the first diagnostics.
    const ticket = ++this.checksStarted;
    this.latest.set(uri, ticket);
    const moot = () => this.latest.get(uri) !== ticket || document.version !== version || host.documents.get(uri) !== document;
    const pause = async () => {
      await nextTurn();
      if (moot()) throw new BudgetExceeded('cancelled');
    };
    try {
      // A big document is read and checked in slices; an edit or a close meanwhile makes this check moot.
      const parsed = await host.models.getInSlices(document);
      if (!parsed || moot()) return;
      if (parsed.languageId === 'rule-tests') await host.ruleTests.prepare(parsed.model as ManifestModel);
      if (moot()) return;
      const problems = await problemsInSlices(parsed, host.context(), pause, undefined, parsed.languageId === 'guardrail' ? undefined : this.showSoFar(uri, version, parsed.positions, moot));
      if (moot()) return;
      const diagnostics = problems.map((problem) => toDiagnostic(parsed.positions, uri, problem));
      if (parsed.languageId === 'guardrail') {
        // With the warnings its evaluation on traces adds, now and whenever the evaluation's results change.
        host.rules.publishRuleFile(document, parsed.model as RuleModel, diagnostics);
        this.recheckTraces();
        this.recheckManifests();
      } else {
        const layout = traceLayoutOfModel(parsed.languageId, parsed.model, () => document.getText());
        if (layout) diagnostics.push(...this.violationDiagnostics(document, await host.rules.checkSafely(document, layout)));
        if (moot()) return;
        host.publish(uri, version, diagnostics);
      }
      // A turn later: the library writes the diagnostics from a later turn, which the count of a big trace's tools
      // and the sample trace of the editing warm-up (2-5 ms together in a fresh server) held up.
      afterEvents(() => {
        if (host.documents.get(uri) !== document || document.version !== version) return;
        if (parsed.inSlices && parsed.languageId === 'agent-trace') prepareForTyping(document);
        host.toolIndex.update(uri, parsed.languageId, parsed.model);
      });
      host.modelChanged(uri, version);
    } catch (error) {
      if (error instanceof BudgetExceeded) return; // a newer version superseded this one while it was read or evaluated
      host.logFailure('validate', uri, version, error);
    }
  }

  /**
   * What a check in slices has found so far, published before it ends (a big Inspect log's early samples show their
   * problems while the later ones are checked): the first problems at once, then at most every interimEveryMs. The
   * finished check's diagnostics, with the rules' violations, replace them.
   */
  private showSoFar(uri: string, version: number, positions: PositionMapper, moot: () => boolean): (soFar: ProblemsSoFar) => void {
    let shown = 0;
    let shownAt = -Infinity;
    return (soFar) => {
      const now = performance.now();
      if (soFar.count === shown || now - shownAt < interimEveryMs || moot()) return;
      shown = soFar.count;
      shownAt = now;
      this.host.publish(uri, version, soFar.list().map((problem) => toDiagnostic(positions, uri, problem)));
    };
  }

  /** The guardrail violations on a trace, and the notices of rules withheld or not evaluated on it, each tied to its rule. */
  private violationDiagnostics(document: TextDocument, findings: RuleFindings | undefined): Diagnostic[] {
    if (!findings) return [];
    const notices = findings.notices.map((problem) => toDiagnostic(document, document.uri, problem));
    if (!findings.evaluated) return notices;
    const { result, rules, severity } = findings.evaluated;
    const ruleLines = new Map(rules.map((rule) => [rule.uri, rule.model.lines]));
    return [
      ...notices,
      ...result.notices.map((notice) => toGuardrailNoticeDiagnostic(document, notice, ruleLines.get(notice.ruleUri)!)),
      ...result.violations.map((violation) => toViolationDiagnostic(document, violation, severity, ruleLines.get(violation.ruleUri)!)),
    ];
  }
}
