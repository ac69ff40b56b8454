import { dirname } from 'node:path';
import type { TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { RuleCoverageResults, RuleFileCoverage, RuleTestFiles } from '../common/types';
import { nextTurn } from '../common/steps';
import { LineIndex } from '../common/lineIndex';
import { guardrailService } from '../guardrail';
import { rulesOf } from '../guardrail/raises';
import { fileNameOfUri, resolveUri } from '../common/uri';
import { bytesPerMB, fileKind, pathOfUri, readTextFile } from '../disk/files';
import { traceLayoutOfFile } from '../traceFormats';
import { parseManifest, type ManifestModel } from '../ruleTests/manifest';
import { caseFailures, expectedAndFound } from '../testRuns/report';
import { coverageOf } from '../testRuns/coverage';
import { runManifest, type FileRead, type Location, type RunHost } from '../testRuns/run';
import type { CaseEvaluation, CaseOptions, RuleSource } from '../rulesOnTraces/workerProtocol';
import type { ServerSettings } from '../settings';
import type { DocumentLocation, RuleTestsList, RuleTestsRun, RuleTestsRunParams } from '../../../shared/requests';


/** What the server lends the rule tests: its documents, settings and workspace folders, and what to refresh after a run. */
export interface RuleTestsHost {
  documents: TextDocuments<TextDocument>;
  settings(): ServerSettings;
  folders(): string[];
  /** A case's evaluation, on the rule evaluation workers; undefined when cancelled. */
  evaluateCase(rules: RuleSource, trace: unknown, options: CaseOptions, isCancelled: () => boolean): Promise<CaseEvaluation | undefined>;
  /** The rule file's lenses and faded rules changed (a run's coverage). */
  coverageChanged(ruleUri: string): void;
}

/** Distinct files a manifest's check looks at on disk; past this, the rest are not known (and not flagged). */
const maxFilesChecked = 1000;

/**
 * The rule tests in the editor: the files a manifest names, known before its check (whether they exist, the rule
 * file's text), its cases for the Test Explorer, its runs (through testRuns/, reading open documents first and the
 * disk otherwise), and per rule file the coverage of the last run, which its code lenses show.
 */
export class RuleTests {
  private readonly exists = new Map<string, boolean>();
  private readonly ruleTexts = new Map<string, string>();
  private readonly coverage = new Map<string, RuleFileCoverage>();

  constructor(private readonly host: RuleTestsHost) {}

  readonly files: RuleTestFiles = {
    exists: (uri) => (this.host.documents.get(uri) ? true : this.exists.get(uri)),
    ruleFileText: (uri) => this.host.documents.get(uri)?.getText() ?? this.ruleTexts.get(uri),
  };

  readonly coverageResults: RuleCoverageResults = { forRuleFile: (uri) => this.coverage.get(uri) };

  /** Looks at the files a manifest names (on disk, inside the workspace) before it is checked. */
  async prepare(manifest: ManifestModel): Promise<void> {
    const uris = new Set<string>();
    const rules = resolveUri(manifest.uri, manifest.rules.path);
    if (rules) uris.add(rules);
    for (const testCase of manifest.cases) {
      if (uris.size >= maxFilesChecked) break;
      const uri = testCase.trace?.kind === 'file' ? resolveUri(manifest.uri, testCase.trace.path) : undefined;
      if (uri) uris.add(uri);
    }
    await Promise.all([...uris].map(async (uri) => {
      if (this.host.documents.get(uri)) return;
      const path = pathOfUri(uri);
      if (!path) return;
      const kind = await fileKind(path, this.foldersOf(manifest.uri));
      // Outside the folders a manifest reads nothing is said about a file (the editor does not look there).
      if (kind === 'outside') this.exists.delete(uri);
      else this.exists.set(uri, kind === 'file');
    }));
    if (rules && !this.host.documents.get(rules) && this.exists.get(rules)) {
      const read = await this.read(rules, manifest.uri);
      if (read.ok) this.ruleTexts.set(rules, read.text);
      else this.ruleTexts.delete(rules);
    }
  }

  async list(uri: string): Promise<RuleTestsList> {
    const read = await this.read(uri);
    if (!read.ok) return { uri, cases: [], problem: read.reason };
    const manifest = parseManifest(uri, 0, read.text);
    const position = (offset: number) => manifest.lines.positionAt(offset);
    const result: RuleTestsList = {
      uri,
      cases: manifest.cases.map((c) => ({ index: c.index, name: c.name, range: { start: position(c.nameSpan.start), end: position(c.nameSpan.end) }, skipped: c.skip !== undefined })),
    };
    const error = manifest.problems.find((p) => p.severity === 'error');
    if (error) result.problem = `${error.message} (line ${position(error.span.start).line + 1})`;
    const rulesUri = resolveUri(uri, manifest.rules.path);
    if (rulesUri) {
      const rules = await this.read(rulesUri, uri);
      const model = rules.ok ? guardrailService.parse({ uri: rulesUri, version: 0, text: rules.text }) : undefined;
      const first = model ? rulesOf(model)[0] : undefined;
      const start = first && model ? model.lines.positionAt(first.span.start) : { line: 0, character: 0 };
      result.rules = { uri: rulesUri, range: { start, end: start } };
    }
    return result;
  }

  async run(params: RuleTestsRunParams, cancelled: () => boolean): Promise<RuleTestsRun> {
    const read = await this.read(params.uri);
    if (!read.ok) return { uri: params.uri, cases: [], problem: `the manifest cannot be read: ${read.reason}` };
    const settings = this.host.settings();
    const runHost: RunHost = {
      read: (uri) => this.read(uri, params.uri),
      traceLayout: (uri, text) => traceLayoutOfFile(pathOfUri(uri) ?? uri, text),
      evaluate: async (rules, trace, options) => {
        const evaluation = await this.host.evaluateCase(rules, trace, options, cancelled);
        if (!evaluation) throw new RunCancelled();
        return evaluation;
      },
      pause: async () => {
        await nextTurn();
        if (cancelled()) throw new RunCancelled();
      },
    };
    let result;
    try {
      result = await runManifest(parseManifest(params.uri, 0, read.text), runHost, {
        budget: settings.guardrails.workBudget,
        timeLimitMs: settings.guardrails.timeout,
        cases: params.cases ? new Set(params.cases) : undefined,
      });
    } catch (error) {
      if (error instanceof RunCancelled) return { uri: params.uri, cases: [], problem: 'the run was cancelled' };
      throw error;
    }
    const location = (l: Location): DocumentLocation => ({ uri: l.uri, range: { start: l.start, end: l.end } });
    const where = (l: Location) => `${fileNameOfUri(l.uri)}:${l.start.line + 1}:${l.start.character + 1}`;
    const answer: RuleTestsRun = {
      uri: params.uri,
      ...(result.problem ? { problem: result.problem } : {}),
      cases: result.cases.map((c) => ({
        index: c.index, name: c.name, status: c.status, durationMs: c.durationMs, notes: c.notes, ...(c.trace ? { trace: location(c.trace) } : {}),
        failures: c.status === 'failed' ? caseFailures(c, where).map((f) => ({ kind: f.kind, text: f.text, ...(f.location ? { location: location(f.location) } : {}) })) : [],
        ...expectedAndFound(c),
      })),
    };
    const [file] = coverageOf([result]);
    if (file && result.rulesUri) {
      const rulesText = await this.read(result.rulesUri, params.uri);
      answer.coverage = {
        rulesUri: result.rulesUri,
        cases: file.cases,
        rules: file.rules.map(({ rule, cases }) => ({ line: rule.line, range: spanRange(rulesText, rule.span), label: rule.label, cases })),
      };
      // Only a run of every case is the file's coverage (a single case would make every other rule look unexercised).
      if (!params.cases) {
        this.coverage.set(result.rulesUri, {
          cases: file.cases,
          manifests: [fileNameOfUri(params.uri)],
          rules: file.rules.map(({ rule, cases }) => ({ header: rulesText.ok ? rulesText.text.slice(rule.span.start, rule.span.end) : '', cases })),
        });
        this.host.coverageChanged(result.rulesUri);
      }
    }
    return answer;
  }

  /**
   * The folders a manifest's files are read from: the workspace folders, and for a manifest the user opened in the
   * editor, its own folder and those below it, wherever it is (a rule file's tests opened from outside the
   * workspace, such as the user's copy of the examples, read the traces beside them; nothing above or beside that
   * folder, and no link out of it).
   */
  private foldersOf(manifestUri: string): string[] {
    const folders = this.host.folders();
    const path = this.host.documents.get(manifestUri) ? pathOfUri(manifestUri) : undefined;
    return path ? [...folders, dirname(path)] : folders;
  }

  /**
   * An open document's text, or the file's on disk (inside the folders the manifest reads from, up to
   * agentTraces.files.maxSizeMB).
   */
  private async read(uri: string, manifestUri = uri): Promise<FileRead> {
    const open = this.host.documents.get(uri);
    if (open) return { ok: true, text: open.getText() };
    const path = pathOfUri(uri);
    if (!path) return { ok: false, reason: 'not a file on disk' };
    const settings = this.host.settings();
    const read = await readTextFile(path, { maxBytes: settings.maxFileSizeMB * bytesPerMB, folders: this.foldersOf(manifestUri), setting: 'agentTraces.files.maxSizeMB' });
    return read.ok ? { ok: true, text: read.text } : read;
  }
}

class RunCancelled extends Error {}

function spanRange(read: FileRead, span: { start: number; end: number }) {
  if (!read.ok) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const lines = new LineIndex(read.text);
  return { start: lines.positionAt(span.start), end: lines.positionAt(span.end) };
}
