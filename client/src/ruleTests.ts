import * as vscode from 'vscode';
import type { BaseLanguageClient as LanguageClient } from 'vscode-languageclient';
import {
  RuleTestsListRequest, RuleTestsRunRequest, sendRequest, type DocumentLocation, type RuleCoverageEntry, type RuleTestCaseResult, type RuleTestsList,
  type RuleTestsRun,
} from '../../shared/requests';
import { findWorkspaceFiles } from './workspaceFiles';

/**
 * The tests of rule files in VS Code's Test Explorer: an item per rule file (in its gutter), per manifest and per
 * case (in the manifest's gutter). The server lists and runs them (RuleTestsListRequest, RuleTestsRunRequest); this
 * controller only turns its answers into test items, results and coverage, and reruns on save when the user asks
 * (agentTraces.ruleTests.runOnSave, or the Test Explorer's continuous run).
 */

const manifestGlob = '**/*.tests.json';
const skippedFolders = ['node_modules', '.git', 'dist', 'out', '.cache', '.vscode-test'];
/** Manifests found in the workspace and listed; a notice says when there are more. */
const maxManifests = 500;

export interface RuleTestsApi {
  controller: vscode.TestController;
  /** Resolves once the workspace's manifests are listed (the extension-host tests await it). */
  discovered(): Promise<void>;
  /** A run ended: what each case it ran reported, as the Test Explorer shows it (the extension-host tests read it). */
  onDidFinishRun: vscode.Event<RuleTestsRunReport>;
  /** Lists a manifest (one outside the workspace too, once opened) and runs its cases in the Test Explorer. */
  runManifest(uri: vscode.Uri): Promise<RuleTestsRunReport>;
}

export interface RuleTestsRunReport {
  /** The manifests the run ran (their URIs). */
  manifests: string[];
  cases: ReportedCase[];
  /** Per rule file covered (a coverage run): covered rules of all rules. */
  coverage: { uri: string; covered: number; total: number }[];
}

export interface ReportedCase {
  id: string;
  label: string;
  state: 'passed' | 'failed' | 'errored' | 'skipped';
  messages: { text: string; expected?: string; actual?: string; uri?: string; range?: vscode.Range }[];
}

interface ManifestEntry {
  list: RuleTestsList;
  item: vscode.TestItem;
  /** The files a run reads (its rule file; its traces are known once run): a save of one reruns it. */
  rulesUri?: string;
}

export function registerRuleTests(context: vscode.ExtensionContext, client: LanguageClient): RuleTestsApi {
  const controller = vscode.tests.createTestController('agentTraces.ruleTests', 'Guardrail Rule Tests');
  const manifests = new Map<string, ManifestEntry>();
  /** Per manifest, the traces its last run read (from its failures' and cases' locations). */
  const tracesRead = new Map<string, Set<string>>();
  const coverageDetails = new WeakMap<vscode.FileCoverage, vscode.StatementCoverage[]>();
  const continuous = new Set<{ request: vscode.TestRunRequest; profile: vscode.TestRunProfile }>();

  const ruleFileItem = (uri: string, range: vscode.Range | undefined): vscode.TestItem => {
    const id = `rules:${uri}`;
    let item = controller.items.get(id);
    if (!item) {
      const parsed = vscode.Uri.parse(uri);
      // A rule file outside the workspace (the user's copy of the examples) is named by its name, its folder beside.
      const inWorkspace = vscode.workspace.getWorkspaceFolder(parsed) !== undefined;
      item = controller.createTestItem(id, inWorkspace ? vscode.workspace.asRelativePath(parsed) : parsed.path.slice(parsed.path.lastIndexOf('/') + 1), parsed);
      if (!inWorkspace) item.description = vscode.Uri.joinPath(parsed, '..').fsPath;
      controller.items.add(item);
    }
    item.range = range;
    return item;
  };

  const refresh = async (uri: vscode.Uri): Promise<void> => {
    const key = uri.toString();
    let list: RuleTestsList;
    try {
      list = await sendRequest(client, RuleTestsListRequest, { uri: key });
    } catch {
      return; // the server is restarting: the next event lists it again
    }
    remove(key);
    const converter = client.protocol2CodeConverter;
    const parent = list.rules ? ruleFileItem(list.rules.uri, converter.asRange(list.rules.range)) : undefined;
    const item = controller.createTestItem(`manifest:${key}`, uri.path.slice(uri.path.lastIndexOf('/') + 1), uri);
    item.range = new vscode.Range(0, 0, 0, 0);
    item.error = list.problem ? new vscode.MarkdownString().appendText(`This manifest cannot run: ${list.problem}`) : undefined;
    for (const c of list.cases) {
      const child = controller.createTestItem(`case:${key}#${c.index}`, c.name, uri);
      child.range = converter.asRange(c.range);
      if (c.skipped) child.description = 'skipped';
      item.children.add(child);
    }
    (parent?.children ?? controller.items).add(item);
    manifests.set(key, { list, item, rulesUri: list.rules?.uri });
  };

  const remove = (key: string): void => {
    const entry = manifests.get(key);
    if (!entry) return;
    manifests.delete(key);
    const parent = entry.item.parent;
    (parent?.children ?? controller.items).delete(entry.item.id);
    if (parent && parent.children.size === 0) controller.items.delete(parent.id);
  };

  let discovery: Promise<void> | undefined;
  const discover = (): Promise<void> => (discovery ??= (async () => {
    const found = await findWorkspaceFiles({ glob: manifestGlob, nameMatches: isManifestName, skippedFolders, maxFiles: maxManifests });
    if (found.truncated) {
      void vscode.window.showInformationMessage(`Agent Traces: the workspace has more rule-test manifests than were searched for; the first ${found.uris.length} are in the Test Explorer.`);
    }
    await Promise.all(found.uris.map(refresh));
  })());
  controller.resolveHandler = async (item) => {
    if (!item) await discover();
  };
  controller.refreshHandler = async () => {
    discovery = undefined;
    for (const key of [...manifests.keys()]) remove(key);
    await discover();
    await Promise.all(shownManifestsOutsideWorkspace().map(refresh));
  };

  // A manifest outside the workspace (the user's copy of the examples) is listed while an editor shows it, as VS Code
  // shows the problems of a file outside the workspace while it is open: once closed, "Run All Tests" runs only the
  // workspace's tests again.
  const forgetClosedManifestsOutsideWorkspace = (): void => {
    const shown = new Set(shownInTabs());
    for (const key of [...manifests.keys()]) {
      if (!shown.has(key) && vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(key)) === undefined) remove(key);
    }
  };
  const shownManifestsOutsideWorkspace = (): vscode.Uri[] => shownInTabs()
    .map((key) => vscode.Uri.parse(key))
    .filter((uri) => isManifestUri(uri) && vscode.workspace.getWorkspaceFolder(uri) === undefined);

  const watcher = vscode.workspace.createFileSystemWatcher(manifestGlob);
  watcher.onDidCreate((uri) => void refresh(uri));
  watcher.onDidChange((uri) => void refresh(uri));
  watcher.onDidDelete((uri) => remove(uri.toString()));
  const edits = new Map<string, NodeJS.Timeout>();
  const isManifest = (document: vscode.TextDocument) => isManifestUri(document.uri);

  // ---- running ----

  const itemsToRun = (request: vscode.TestRunRequest): Map<string, { item: vscode.TestItem; cases?: Set<number> }> => {
    const chosen = new Map<string, { item: vscode.TestItem; cases?: Set<number> }>();
    const addManifest = (key: string, caseIndex?: number) => {
      const entry = manifests.get(key);
      if (!entry) return;
      const existing = chosen.get(key);
      if (caseIndex === undefined) chosen.set(key, { item: entry.item });
      else if (!existing) chosen.set(key, { item: entry.item, cases: new Set([caseIndex]) });
      else existing.cases?.add(caseIndex);
    };
    const roots = request.include ?? [...iterate(controller.items)];
    for (const item of roots) {
      if (item.id.startsWith('rules:')) for (const child of iterate(item.children)) addManifest(child.id.slice('manifest:'.length));
      else if (item.id.startsWith('manifest:')) addManifest(item.id.slice('manifest:'.length));
      else if (item.id.startsWith('case:')) {
        const [key, index] = splitCaseId(item.id);
        addManifest(key, index);
      }
    }
    for (const item of request.exclude ?? []) {
      if (item.id.startsWith('manifest:')) chosen.delete(item.id.slice('manifest:'.length));
      else if (item.id.startsWith('case:')) {
        const [key, index] = splitCaseId(item.id);
        const entry = chosen.get(key);
        if (!entry) continue;
        entry.cases ??= new Set(manifests.get(key)!.list.cases.map((c) => c.index));
        entry.cases.delete(index);
      }
    }
    return chosen;
  };

  const finished = new vscode.EventEmitter<RuleTestsRunReport>();

  const runTests = async (request: vscode.TestRunRequest, token: vscode.CancellationToken, withCoverage: boolean): Promise<void> => {
    await discover();
    const run = recordingRun(controller.createTestRun(request));
    const chosen = itemsToRun(request);
    const covered: RuleTestsRunReport['coverage'] = [];
    try {
      for (const [key, { item, cases }] of chosen) {
        if (token.isCancellationRequested) break;
        const caseItems = [...iterate(item.children)].filter((child) => !cases || cases.has(splitCaseId(child.id)[1]));
        for (const child of caseItems) run.enqueued(child);
        for (const child of caseItems) run.started(child);
        let result: RuleTestsRun;
        try {
          result = await sendRequest(client, RuleTestsRunRequest, { uri: key, cases: cases ? [...cases] : undefined });
        } catch (error) {
          for (const child of caseItems) run.errored(child, new vscode.TestMessage(`The tests could not run: ${error instanceof Error ? error.message : String(error)}`));
          continue;
        }
        if (result.problem) {
          const message = new vscode.TestMessage(`This manifest cannot run: ${result.problem}`);
          message.location = new vscode.Location(vscode.Uri.parse(key), new vscode.Position(0, 0));
          run.errored(item, message);
          for (const child of caseItems) run.skipped(child);
          continue;
        }
        const reads = new Set<string>();
        for (const c of result.cases) {
          const child = item.children.get(`case:${key}#${c.index}`);
          if (!child) continue;
          if (c.trace) reads.add(c.trace.uri);
          report(run, child, c, client);
        }
        tracesRead.set(key, reads);
        if (withCoverage && result.coverage) {
          const coverage = fileCoverage(result.coverage.rulesUri, result.coverage.rules, client);
          coverageDetails.set(coverage.file, coverage.details);
          run.addCoverage(coverage.file);
          covered.push({ uri: result.coverage.rulesUri, covered: coverage.file.statementCoverage.covered, total: coverage.file.statementCoverage.total });
        }
      }
    } finally {
      run.end();
      finished.fire({ manifests: [...chosen.keys()], cases: run.reported, coverage: covered });
    }
  };

  const runProfile = controller.createRunProfile('Run', vscode.TestRunProfileKind.Run, (request, token) => {
    if (request.continuous) return watchContinuously(request, runProfile, token);
    return runTests(request, token, false);
  }, true, undefined, true);
  const coverageProfile = controller.createRunProfile('Run with Coverage', vscode.TestRunProfileKind.Coverage, (request, token) => {
    if (request.continuous) return watchContinuously(request, coverageProfile, token);
    return runTests(request, token, true);
  }, true, undefined, true);
  coverageProfile.loadDetailedCoverage = async (_run, file) => coverageDetails.get(file) ?? [];

  /** The Test Explorer's continuous run: the chosen tests run now and again after each save of what they read. */
  const watchContinuously = async (request: vscode.TestRunRequest, profile: vscode.TestRunProfile, token: vscode.CancellationToken): Promise<void> => {
    const entry = { request, profile };
    continuous.add(entry);
    token.onCancellationRequested(() => continuous.delete(entry));
    await runTests(new vscode.TestRunRequest(request.include, request.exclude, profile), token, profile.kind === vscode.TestRunProfileKind.Coverage);
  };

  /** Manifests a save concerns: the manifest itself, or one whose rule file or last-read traces it is. */
  const affected = (uri: string): string[] => [...manifests.entries()]
    .filter(([key, entry]) => key === uri || entry.rulesUri === uri || tracesRead.get(key)?.has(uri))
    .map(([key]) => key);

  const onSave = (document: vscode.TextDocument) => {
    const keys = affected(document.uri.toString());
    if (keys.length === 0) return;
    const items = keys.map((key) => manifests.get(key)!.item);
    for (const { request, profile } of continuous) {
      const include = request.include?.filter((item) => items.some((m) => m === item || m.parent === item || item.parent === m)) ?? items;
      if (include.length > 0) void runTests(new vscode.TestRunRequest(include, request.exclude, profile), new vscode.CancellationTokenSource().token, profile.kind === vscode.TestRunProfileKind.Coverage);
    }
    // Rules run on traces: in Restricted Mode they run only when the user asks, never on a save.
    const setting = vscode.workspace.getConfiguration('agentTraces', document.uri).get<boolean>('ruleTests.runOnSave', false);
    if (setting && vscode.workspace.isTrusted && continuous.size === 0) {
      void runTests(new vscode.TestRunRequest(items, undefined, runProfile), new vscode.CancellationTokenSource().token, false);
    }
  };

  context.subscriptions.push(
    controller, watcher, finished,
    vscode.workspace.onDidSaveTextDocument(onSave),
    vscode.workspace.onDidOpenTextDocument((document) => {
      if (isManifest(document) && !manifests.has(document.uri.toString())) void refresh(document.uri);
    }),
    // While a manifest is edited its cases move: list them again once typing pauses.
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (!isManifest(event.document) || event.contentChanges.length === 0) return;
      const key = event.document.uri.toString();
      clearTimeout(edits.get(key));
      edits.set(key, setTimeout(() => void refresh(event.document.uri), 300));
    }),
    // A folder added or removed: its manifests join or leave the Test Explorer.
    vscode.workspace.onDidChangeWorkspaceFolders(() => void controller.refreshHandler?.(new vscode.CancellationTokenSource().token)),
    vscode.window.tabGroups.onDidChangeTabs((event) => {
      if (event.closed.length > 0) forgetClosedManifestsOutsideWorkspace();
    }),
    vscode.window.tabGroups.onDidChangeTabGroups((event) => {
      if (event.closed.length > 0) forgetClosedManifestsOutsideWorkspace();
    }),
    client.onDidChangeState(() => {
      if (client.isRunning()) void controller.refreshHandler?.(new vscode.CancellationTokenSource().token);
    }),
  );
  const runManifest = async (uri: vscode.Uri): Promise<RuleTestsRunReport> => {
    const key = uri.toString();
    if (!manifests.has(key)) await refresh(uri);
    const entry = manifests.get(key);
    if (!entry) throw new Error(`${uri.path.slice(uri.path.lastIndexOf('/') + 1)} could not be listed: the language server is not running`);
    let subscription: vscode.Disposable | undefined;
    const report = new Promise<RuleTestsRunReport>((resolve) => {
      subscription = finished.event((ended) => ended.manifests.includes(key) && resolve(ended));
    });
    try {
      await runTests(new vscode.TestRunRequest([entry.item], undefined, runProfile), new vscode.CancellationTokenSource().token, false);
      return await report;
    } finally {
      subscription?.dispose();
    }
  };

  void discover();
  return { controller, discovered: discover, onDidFinishRun: finished.event, runManifest };
}

/** A test run that also keeps what it reported per item, for the run's report. */
function recordingRun(run: vscode.TestRun): vscode.TestRun & { reported: ReportedCase[] } {
  const reported: ReportedCase[] = [];
  const record = (item: vscode.TestItem, state: ReportedCase['state'], messages: vscode.TestMessage | readonly vscode.TestMessage[] = []) => {
    reported.push({
      id: item.id, label: item.label, state,
      messages: (Array.isArray(messages) ? messages : [messages]).map((m: vscode.TestMessage) => ({
        text: typeof m.message === 'string' ? m.message : m.message.value,
        ...(m.expectedOutput !== undefined ? { expected: m.expectedOutput } : {}),
        ...(m.actualOutput !== undefined ? { actual: m.actualOutput } : {}),
        ...(m.location ? { uri: m.location.uri.toString(), range: m.location.range } : {}),
      })),
    });
  };
  return {
    reported,
    get name() { return run.name; },
    get token() { return run.token; },
    get isPersisted() { return run.isPersisted; },
    onDidDispose: run.onDidDispose,
    enqueued: (item) => run.enqueued(item),
    started: (item) => run.started(item),
    appendOutput: (output, location, item) => run.appendOutput(output, location, item),
    addCoverage: (coverage) => run.addCoverage(coverage),
    end: () => run.end(),
    passed: (item, duration) => { record(item, 'passed'); run.passed(item, duration); },
    failed: (item, messages, duration) => { record(item, 'failed', messages); run.failed(item, messages, duration); },
    errored: (item, messages, duration) => { record(item, 'errored', messages); run.errored(item, messages, duration); },
    skipped: (item) => { record(item, 'skipped'); run.skipped(item); },
  };
}

function report(run: vscode.TestRun, item: vscode.TestItem, result: RuleTestCaseResult, client: LanguageClient): void {
  if (result.status === 'skipped') {
    run.skipped(item);
    return;
  }
  for (const note of result.notes) run.appendOutput(`${item.label}: note: ${note}\r\n`, undefined, item);
  if (result.status === 'passed') {
    run.passed(item, result.durationMs);
    return;
  }
  const at = (location: DocumentLocation | undefined) => location && client.protocol2CodeConverter.asLocation({ uri: location.uri, range: location.range });
  const messages: vscode.TestMessage[] = [];
  const [first, ...rest] = result.failures;
  // The first failure carries the difference of expected and found violations; each other failure opens at its own place.
  const summary = vscode.TestMessage.diff(first?.text ?? 'failed', result.expected, result.found);
  summary.location = at(first?.location);
  messages.push(summary);
  for (const failure of rest) {
    const message = new vscode.TestMessage(failure.text);
    message.location = at(failure.location);
    messages.push(message);
  }
  if (first?.kind === 'error') run.errored(item, messages, result.durationMs);
  else run.failed(item, messages, result.durationMs);
}

function fileCoverage(rulesUri: string, rules: RuleCoverageEntry[], client: LanguageClient): { file: vscode.FileCoverage; details: vscode.StatementCoverage[] } {
  const details = rules.map((rule) => new vscode.StatementCoverage(rule.cases, client.protocol2CodeConverter.asRange(rule.range)));
  const covered = rules.filter((rule) => rule.cases > 0).length;
  return { file: new vscode.FileCoverage(vscode.Uri.parse(rulesUri), new vscode.TestCoverageCount(covered, rules.length)), details };
}

function isManifestName(name: string): boolean {
  return name.toLowerCase().endsWith('.tests.json');
}

function isManifestUri(uri: vscode.Uri): boolean {
  return isManifestName(uri.path);
}

/** The URIs (as strings) of the files the editors' tabs show, a difference's two sides included. */
function shownInTabs(): string[] {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs).flatMap(({ input }) => {
    if (input instanceof vscode.TabInputText) return [input.uri.toString()];
    if (input instanceof vscode.TabInputTextDiff) return [input.original.toString(), input.modified.toString()];
    return [];
  });
}

function splitCaseId(id: string): [string, number] {
  const hash = id.lastIndexOf('#');
  return [id.slice('case:'.length, hash), Number(id.slice(hash + 1))];
}

function* iterate(collection: vscode.TestItemCollection): Generator<vscode.TestItem> {
  const items: vscode.TestItem[] = [];
  collection.forEach((item) => items.push(item));
  yield* items;
}
