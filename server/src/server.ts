import {
  CancellationToken, CodeActionKind, ErrorCodes, DidChangeConfigurationNotification, FileChangeType, LSPErrorCodes,
  ResponseError, TextDocuments, TextDocumentSyncKind, type InitializeResult, type Position,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ServiceContext } from './common/languageService';
import { emptyGraph } from './preview/emptyGraph';
import { BudgetExceeded, type Budget } from './common/budget';
import {
  toCodeLens, toCompletionItem, toDocumentSymbol, toFoldingRanges, toHighlight, toHover, toLocationLinks, toRange,
  toTextEdit,
} from './lsp/toProtocol';
import { fixAllKind, toInlayHint } from './lsp/toProtocol';
import { codeActions } from './lsp/codeActionRequest';
import { bytesPerMB, pathOfUri, readTextFile } from './disk/files';
import { documentsRecordingEdits, EditLog } from './lsp/editLog';
import { EditorDocument } from './lsp/editorDocument';
import { DocumentModels, problemsOf, type ParsedDocument } from './lsp/documentModels';
import { ModelPreparation } from './lsp/modelPreparation';
import { DiagnosticsPipeline } from './lsp/diagnostics';
import { warmUpTraceReading } from './lsp/warmUp';
import type { GraphData } from '../../shared/protocol';
import {
  CompareLocateRequest, CompareRequest, ConvertToTraceRequest, EvaluateRulesRequest, ExplainChoicesRequest, ExplainRuleRequest, ExplainTargetsRequest, RuleCompareRequest, GraphRequest, ModelChangedNotification, onNotification, onRequest, RulesForTraceRequest,
  InspectArchiveTextRequest, RecognizeDocumentRequest, RuleTestsListRequest, RuleTestsRunRequest, sendNotification, ServerInfoRequest, VisibleRulesNotification, WorkspaceTrustNotification,
  type InitializationOptions,
} from '../../shared/requests';
import { defaultServerSettings, readSettings, type ServerSettings } from './settings';
import { WorkspaceToolIndex } from './lsp/workspaceTools';
import { inspectArchiveText } from './lsp/inspectArchiveRequest';
import { zipCodec } from './archive/codec';
import { FolderPythonModules } from './disk/pythonModules';
import { version as serverVersion } from '../../package.json';
import { readPolicyFiles } from './rulesOnTraces/policies';
import { RuleChecks } from './lsp/ruleChecks';
import { createServerConnection, messageArriving, warmUpDecoder } from './transport/connection';
import { describeError } from './common/text';
import { Comparisons } from './lsp/compareRequest';
import { RuleTests } from './lsp/ruleTests';
import { languageForDocument } from './languages';
import { convertDocument } from './lsp/convertRequest';
import { Explanations } from './lsp/explainRequest';
import { compareRuleVersions } from './lsp/ruleCompareRequest';

// ---- the server's state: its settings, what the client can do, the workspace folders ----

let settings: ServerSettings = defaultServerSettings;
let canPullConfiguration = false;
let canReportFolderChanges = false;
let canRefreshCodeLenses = false;
let snippetEdits = false;
let workspaceFolders: string[] = [];
/** Read again when the settings or the workspace folders change. */
let pythonModules: FolderPythonModules | undefined;

function workspaceFolderPaths(): string[] {
  return workspaceFolders.map(pathOfUri).filter((path): path is string => path !== undefined);
}

// ---- the parts: documents and their models, the tool index, rule checks and the diagnostics pipeline ----

const connection = createServerConnection();
// Edited traces are read again only where the edit touched them; the end-to-end benchmark sets this variable to
// compare with reading every version in full.
const edits = globalThis.process?.env.AGENT_TRACES_FULL_REREAD ? undefined : new EditLog();
const documents = new TextDocuments<TextDocument>(edits ? documentsRecordingEdits(edits) : EditorDocument);
const models = new DocumentModels(
  () => ({
    maxLines: settings.jsonlMaxLines, maxOutlineEntries: settings.jsonlMaxOutlineEntries, cachedLineModels: settings.jsonlCachedLineModels,
    maxFileSizeMB: settings.maxFileSizeMB, folders: workspaceFolderPaths(),
  }),
  (message) => connection.console.error(message),
  edits,
);
const toolIndex = new WorkspaceToolIndex((message) => connection.console.info(message), () => ({
  maxFiles: settings.maxTraceFiles,
  maxFileBytes: settings.indexMaxFileSizeMB * bytesPerMB,
  maxTotalBytes: settings.indexMaxTotalSizeMB * bytesPerMB,
  maxLines: settings.jsonlMaxLines,
  folders: workspaceFolderPaths(),
  maxJsonHeads: settings.workspaceMaxJsonFiles,
}));
const preparation = new ModelPreparation(models, (message) => connection.console.error(message));
const rules = new RuleChecks({
  documents, models,
  settings: () => settings,
  workspaceFolderPaths: () => workspaceFolderPaths(),
  info: (message) => connection.console.info(message),
  logFailure: (feature, uri, version, error) => logFailure(feature, uri, version, error),
  refreshCodeLenses: () => refreshCodeLenses(),
  publishDiagnostics: (uri, version, list) => void connection.sendDiagnostics({ uri, version, diagnostics: list }),
});
const ruleTests = new RuleTests({
  documents,
  settings: () => settings,
  folders: () => workspaceFolderPaths(),
  evaluateCase: (rulesSource, trace, options, isCancelled) => rules.evaluateCase(rulesSource, trace, options, isCancelled),
  coverageChanged: (uri) => {
    refreshCodeLenses();
    const ruleFile = documents.get(uri);
    if (ruleFile) diagnostics.schedule(ruleFile, 0); // its rules no test exercises are faded
  },
});
const diagnostics = new DiagnosticsPipeline({
  documents, models, preparation, rules, ruleTests, toolIndex,
  settings: () => settings,
  context: () => context(),
  publish: (uri, version, list) => void connection.sendDiagnostics({ uri, version, diagnostics: list }),
  modelChanged: (uri, version) => void sendNotification(connection, ModelChangedNotification, { uri, version }),
  logFailure: (feature, uri, version, error) => logFailure(feature, uri, version, error),
});

function context(budget?: Budget): ServiceContext {
  pythonModules ??= new FolderPythonModules(settings.pythonPaths, workspaceFolderPaths(), settings.maxPythonFileSize, () => diagnostics.recheckRuleFiles());
  return {
    settings, workspaceTools: toolIndex, pythonModules, budget, guardrailResults: rules.lensResults,
    ruleTestFiles: ruleTests.files, ruleCoverage: ruleTests.coverageResults,
  };
}

connection.onInitialize((params): InitializeResult => {
  canPullConfiguration = params.capabilities.workspace?.configuration === true;
  canReportFolderChanges = params.capabilities.workspace?.workspaceFolders === true;
  canRefreshCodeLenses = params.capabilities.workspace?.codeLens?.refreshSupport === true;
  snippetEdits = params.capabilities.workspace?.workspaceEdit?.snippetEditSupport === true;
  workspaceFolders = params.workspaceFolders?.map((folder) => folder.uri) ?? (params.rootUri ? [params.rootUri] : []);
  // Only a client that says the workspace is untrusted gets Restricted Mode (see rulesOnTraces/consent.ts).
  rules.consent.setTrusted((params.initializationOptions as InitializationOptions | undefined)?.workspaceTrusted !== false);
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
      hoverProvider: true,
      definitionProvider: true,
      referencesProvider: true,
      documentHighlightProvider: true,
      documentSymbolProvider: { label: 'Agent Traces' },
      foldingRangeProvider: true,
      renameProvider: { prepareProvider: true },
      inlayHintProvider: true,
      codeLensProvider: {},
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.RefactorRewrite, fixAllKind] },
      completionProvider: { triggerCharacters: ['"', ':', '.', '(', ' ', '<'] },
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
    },
    serverInfo: { name: 'agent-traces-language-server', version: serverVersion },
  };
});

connection.onInitialized(async () => {
  warmUpTraceReading(warmUpDecoder, () => !messageArriving() && !documents.all().some((document) => models.readsInSlices(document)));
  if (canPullConfiguration) {
    connection.client.register(DidChangeConfigurationNotification.type, { section: 'agentTraces' }).catch(() => undefined);
  }
  await refreshSettings();
  await refreshPolicies();
  rules.scheduleWorkspaceCount();
  // Documents opened while the settings were on their way were checked with the defaults.
  diagnostics.recheckAll();
  void toolIndex.rebuild(workspaceFolders);
  // Subscribing asks the client for folder events; a client without them (many editors besides VS Code) would get
  // an error logged at every start.
  if (!canReportFolderChanges) return;
  connection.workspace.onDidChangeWorkspaceFolders((event) => {
    workspaceFolders = workspaceFolders
      .filter((uri) => !event.removed.some((folder) => folder.uri === uri))
      .concat(event.added.map((folder) => folder.uri));
    pythonModules = undefined;
    void toolIndex.rebuild(workspaceFolders);
    void refreshPolicies().then(() => diagnostics.recheckTraces());
  });
});

async function refreshSettings(): Promise<void> {
  if (!canPullConfiguration) return;
  try {
    settings = readSettings(await connection.workspace.getConfiguration('agentTraces'));
    pythonModules = undefined;
  } catch (error) {
    connection.console.warn(`Could not read the agentTraces settings, using defaults: ${(error as Error).message}`);
  }
}

connection.onDidChangeConfiguration(async (change) => {
  if (canPullConfiguration) await refreshSettings();
  else settings = readSettings((change.settings as { agentTraces?: unknown } | undefined)?.agentTraces);
  pythonModules = undefined;
  await refreshPolicies();
  diagnostics.recheckAll();
  // The inlay hint settings may have changed; a client without refresh support answers with an error, ignored.
  connection.languages.inlayHint.refresh().catch(() => undefined);
});

connection.onDidChangeWatchedFiles((change) => {
  let pythonChanged = false;
  if (change.changes.some((event) => event.uri.toLowerCase().endsWith('.gr'))) void refreshPolicies().then(() => diagnostics.recheckTraces());
  for (const event of change.changes) {
    if (event.uri.toLowerCase().endsWith('.gr')) continue; // policies, read again above
    if (event.uri.endsWith('.py')) {
      pythonChanged = true;
      continue;
    }
    if (documents.get(event.uri)) continue;
    // Every `.json` file of the workspace is watched, for the logs and conversations among them: the lenses count
    // again only when a file that holds traces (or held them) changed, not on every save of a package.json.
    if (event.type === FileChangeType.Deleted) {
      toolIndex.remove(event.uri);
      rules.scheduleWorkspaceCount();
    } else {
      void toolIndex.refreshFile(event.uri).then((holdsTraces) => holdsTraces && rules.scheduleWorkspaceCount());
    }
  }
  // Rule files read the Python modules they import: check them again.
  if (pythonChanged) {
    pythonModules = undefined; // the browser's are read ahead: read them again
    diagnostics.recheckRuleFiles();
  }
  // Manifests name rule and trace files, which may have come or gone.
  diagnostics.recheckManifests();
});

// ---- diagnostics: lsp/diagnostics.ts checks each document after its edits and publishes what it finds ----

documents.onDidOpen((event) => diagnostics.opened(event.document));
documents.onDidChangeContent((event) => diagnostics.changed(event.document));
documents.onDidClose((event) => diagnostics.closed(event.document));

// ---- guardrail rules on the open traces (lsp/ruleChecks.ts) ----

/** Rule files shown in the client's editors (see VisibleRulesNotification). */
onNotification(connection, VisibleRulesNotification, (params) => {
  rules.setVisibleRules(params.uris);
  diagnostics.recheckTraces();
});

let codeLensRefresh: NodeJS.Timeout | undefined;
function refreshCodeLenses(): void {
  if (!canRefreshCodeLenses || codeLensRefresh) return;
  codeLensRefresh = setTimeout(() => {
    codeLensRefresh = undefined;
    void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
  }, 0);
}

async function refreshPolicies(): Promise<void> {
  const policies = await readPolicyFiles(settings.guardrails.policies, workspaceFolderPaths(), { maxFiles: 200, maxBytes: settings.maxFileSizeMB * bytesPerMB });
  for (const problem of policies.problems) connection.console.warn(`[guardrails] ${problem}`);
  rules.bindings.setPolicies(policies.files);
}

onRequest(connection, RulesForTraceRequest, async (params) => {
  const files: { uri: string; text: string }[] = [];
  const problems: string[] = [];
  for (const uri of params.rules) {
    const open = documents.get(uri);
    const path = pathOfUri(uri);
    const read = open ? { ok: true as const, text: open.getText() } : path
      ? await readTextFile(path, { maxBytes: settings.maxFileSizeMB * bytesPerMB, folders: workspaceFolderPaths(), setting: 'agentTraces.files.maxSizeMB' })
      : { ok: false as const, reason: 'not a file on disk' };
    if (read.ok) files.push({ uri, text: read.text });
    else problems.push(`${uri}: ${read.reason}`);
  }
  rules.bindings.choose(params.uri, files);
  rules.consent.grant(files.map((file) => file.uri)); // chosen by the user: asked for
  const document = documents.get(params.uri);
  if (document) diagnostics.schedule(document, 0);
  return { bound: files.length, problems };
});

/** In an untrusted workspace, the user asks for rule files to be evaluated: from then on they are, as when trusted. */
onRequest(connection, EvaluateRulesRequest, (params) => {
  const asked = params.rules ?? rules.applyingToOpenTraces().rules;
  rules.consent.grant(asked);
  diagnostics.recheckTraces();
  refreshCodeLenses();
  return { rules: asked.length, traces: rules.applyingToOpenTraces(new Set(asked)).traces };
});

onNotification(connection, WorkspaceTrustNotification, (params) => {
  rules.consent.setTrusted(params.trusted);
  diagnostics.recheckTraces();
  refreshCodeLenses();
});

// ---- requests: each runs inside a guard that honours cancellation and its time budget, and never throws ----

function logFailure(feature: string, uri: string, version: number | undefined, error: unknown): void {
  const detail = describeError(error);
  connection.console.error(`[${feature}] ${uri}${version === undefined ? '' : `@${version}`}: ${detail}`);
}

/**
 * The request's cancellation token and, from `started` on when agentTraces.requestTimeBudget is set, its deadline
 * (without `started`, cancellation only).
 */
function requestBudget(token: CancellationToken, started?: number): Budget {
  const deadline = started !== undefined && settings.requestTimeBudget > 0 ? started + settings.requestTimeBudget : undefined;
  return { get isCancellationRequested() { return token.isCancellationRequested; }, deadline };
}

/**
 * Runs a request on the document's model. The time budget counts only the request's own work on the model, not the
 * wait for the model: the model is read once per version for the check and every request alike, so a request cut off
 * while it is read would answer nothing that the editor asks for again (VS Code asks for the outline, folding and
 * lenses once per version and takes an error or a server cancellation as "nothing"), and a parse stopped by one
 * request's budget would be repeated by the next. A request on a document still being read waits for that reading;
 * the editor's cancellation and a newer version end the wait.
 */
async function guarded<R>(
  feature: string,
  uri: string,
  token: CancellationToken,
  fallback: R,
  work: (parsed: ParsedDocument, document: TextDocument, budget: Budget) => R,
): Promise<R | ResponseError<void>> {
  const document = documents.get(uri);
  if (!document) return fallback;
  if (token.isCancellationRequested) return new ResponseError(LSPErrorCodes.RequestCancelled, 'Request cancelled');
  const version = document.version;
  let started: number | undefined;
  try {
    const parsed = await models.getInSlices(document, requestBudget(token));
    if (!parsed) return fallback;
    // A big document read in slices may have been edited meanwhile: the answer would point at the old text.
    if (document.version !== version) return new ResponseError(LSPErrorCodes.ContentModified, 'The document changed');
    if (token.isCancellationRequested) return new ResponseError(LSPErrorCodes.RequestCancelled, 'Request cancelled');
    started = Date.now();
    return work(parsed, document, requestBudget(token, started));
  } catch (error) {
    if (error instanceof BudgetExceeded) {
      if (error.reason === 'cancelled' || started === undefined) return new ResponseError(LSPErrorCodes.RequestCancelled, 'Request cancelled');
      connection.console.info(`[${feature}] ${uri}@${document.version}: stopped after ${Date.now() - started} ms, past its time budget `
        + `(agentTraces.requestTimeBudget = ${settings.requestTimeBudget} ms); answered with no result`);
      return fallback;
    }
    logFailure(feature, uri, document.version, error);
    return fallback;
  }
}

const offsetOf = (document: TextDocument, position: Position) => document.offsetAt(position);

connection.onHover((params, token) =>
  guarded('hover', params.textDocument.uri, token, null, (parsed, document, budget) => {
    const hover = parsed.service.hover(parsed.model, offsetOf(document, params.position), context(budget));
    return hover ? toHover(document, hover) : null;
  }),
);

connection.onDefinition((params, token) =>
  guarded('definition', params.textDocument.uri, token, [], (parsed, document) => {
    const targets = parsed.service.definition(parsed.model, offsetOf(document, params.position), context());
    return toLocationLinks(document, document.uri, undefined, targets);
  }),
);

connection.onReferences((params, token) =>
  guarded('references', params.textDocument.uri, token, [], (parsed, document) =>
    parsed.service
      .references(parsed.model, offsetOf(document, params.position), params.context.includeDeclaration)
      .map((target) => ({ uri: target.uri ?? document.uri, range: toRange(document, target.selection ?? target.span) })),
  ),
);

connection.onDocumentHighlight((params, token) =>
  guarded('highlights', params.textDocument.uri, token, [], (parsed, document) =>
    parsed.service.highlights(parsed.model, offsetOf(document, params.position)).map((h) => toHighlight(document, h)),
  ),
);

connection.onDocumentSymbol((params, token) =>
  guarded('symbols', params.textDocument.uri, token, [], (parsed, document, budget) =>
    parsed.service.symbols(parsed.model, budget, settings).map((item) => toDocumentSymbol(document, item)),
  ),
);

connection.onFoldingRanges((params, token) =>
  guarded('folding', params.textDocument.uri, token, [], (parsed, document) =>
    toFoldingRanges(document, parsed.service.folding(parsed.model)),
  ),
);

connection.onCompletion((params, token) =>
  guarded('completion', params.textDocument.uri, token, [], (parsed, document, budget) =>
    parsed.service
      .completion(parsed.model, offsetOf(document, params.position), context(budget))
      .map((entry) => toCompletionItem(document, entry)),
  ),
);

connection.onPrepareRename((params, token) =>
  guarded('prepareRename', params.textDocument.uri, token, null, (parsed, document) => {
    const offset = offsetOf(document, params.position);
    const span = parsed.service.prepareRename?.(parsed.model, offset);
    if (span) return toRange(document, span);
    const refusal = parsed.service.renameRefusal?.(parsed.model, offset);
    return refusal ? new ResponseError(ErrorCodes.InvalidRequest, refusal) : null;
  }),
);

connection.onRenameRequest((params, token) =>
  guarded('rename', params.textDocument.uri, token, null, (parsed, document) => {
    const renamed = parsed.service.rename?.(parsed.model, offsetOf(document, params.position), params.newName);
    if (!renamed) return null;
    if ('refusal' in renamed) return new ResponseError(ErrorCodes.InvalidRequest, renamed.refusal);
    return { changes: { [document.uri]: renamed.edits.map((edit) => toTextEdit(document, edit)) } };
  }),
);

connection.onCodeAction((params, token) =>
  guarded('codeAction', params.textDocument.uri, token, [], (parsed, document, budget) =>
    codeActions(parsed, document, params, problemsOf(parsed, context()), snippetEdits, budget),
  ),
);

connection.languages.inlayHint.on((params, token) =>
  guarded('inlayHints', params.textDocument.uri, token, [], (parsed, document, budget) => {
    const span = { start: document.offsetAt(params.range.start), end: document.offsetAt(params.range.end) };
    return (parsed.service.inlayHints?.(parsed.model, span, context(budget)) ?? []).map((label) => toInlayHint(document, label));
  }),
);

connection.onCodeLens((params, token) =>
  guarded('codeLenses', params.textDocument.uri, token, [], (parsed, document, budget) =>
    (parsed.service.codeLenses?.(parsed.model, context(budget)) ?? []).map((lens) => toCodeLens(document, document.uri, lens)),
  ),
);

// ---- custom requests ----

function graphError(uri: string, message: string): GraphData {
  return emptyGraph({ uri, version: -1, format: 'trace' }, settings.preview, message);
}

onRequest(connection, GraphRequest, async (params, token) => {
  const document = documents.get(params.uri);
  let parsed: ParsedDocument | undefined;
  try {
    parsed = document ? await models.getInSlices(document) : await models.readFromDisk(params.uri);
  } catch (error) {
    logFailure('graph', params.uri, document?.version, error);
    return graphError(params.uri, `Could not read this file: ${(error as Error).message}`);
  }
  if (!parsed?.service.graph) return graphError(params.uri, 'This file has no trace to preview.');
  if (token.isCancellationRequested) return new ResponseError(LSPErrorCodes.RequestCancelled, 'Request cancelled');
  try {
    const { positions } = parsed;
    const cursorOffset = params.cursorLine === undefined ? undefined : positions.offsetAt({ line: params.cursorLine, character: 0 });
    const requestContext = context();
    return parsed.service.graph(
      parsed.model,
      { traceIndex: params.traceIndex, cursorOffset, problems: rules.withViolations(params.uri, problemsOf(parsed, requestContext)), toRange: (span) => toRange(positions, span) },
      requestContext,
    );
  } catch (error) {
    logFailure('graph', params.uri, parsed.version, error);
    return graphError(params.uri, 'The preview could not be computed; the language server log has the details.');
  }
});

const comparisons = new Comparisons();

onRequest(connection, CompareRequest, async (params, token) => {
  try {
    return await comparisons.compare(params, { documents, settings, folders: workspaceFolderPaths(), cancelled: () => token.isCancellationRequested });
  } catch (error) {
    if (error instanceof BudgetExceeded) return new ResponseError(LSPErrorCodes.RequestCancelled, 'Request cancelled');
    logFailure('compare', `${params.left.uri} ↔ ${params.right.uri}`, undefined, error);
    return new ResponseError(ErrorCodes.InternalError, 'The comparison could not be computed; the language server log has the details.');
  }
});

onRequest(connection, CompareLocateRequest, (params) => {
  try {
    return comparisons.locate(params);
  } catch (error) {
    logFailure('compareLocate', params.id, undefined, error);
    return null;
  }
});

// ---- the tests of rule files (lsp/ruleTests.ts): the Test Explorer lists and runs them ----

onRequest(connection, RuleTestsListRequest, async (params) => {
  try {
    return await ruleTests.list(params.uri);
  } catch (error) {
    logFailure('ruleTests/list', params.uri, undefined, error);
    return { uri: params.uri, cases: [], problem: 'The manifest could not be read; the language server log has the details.' };
  }
});

onRequest(connection, RuleTestsRunRequest, async (params, token) => {
  try {
    return await ruleTests.run(params, () => token.isCancellationRequested);
  } catch (error) {
    logFailure('ruleTests/run', params.uri, undefined, error);
    return { uri: params.uri, cases: [], problem: 'The tests could not be run; the language server log has the details.' };
  }
});

// ---- "why not here?" (lsp/explainRequest.ts): a rule explained on one element of a trace ----

const explanations = new Explanations({ documents, models, rules, settings: () => settings });

/** A request answered at once: its answer, or `fallback` when it fails (logged with the document it was about). */
function answered<R>(feature: string, uri: string, work: () => R, fallback: R): R {
  try {
    return work();
  } catch (error) {
    logFailure(feature, uri, documents.get(uri)?.version, error);
    return fallback;
  }
}

onRequest(connection, ExplainChoicesRequest, (params) => answered('explain/choices', params.uri, () => explanations.choices(params),
  { rules: [], problem: 'the trace could not be read; the language server log has the details' }));

onRequest(connection, ExplainRuleRequest, (params, token) => explanations.explain(params, () => token.isCancellationRequested).catch((error) => {
  logFailure('explain/rule', params.uri, documents.get(params.uri)?.version, error);
  return { problem: 'the rule could not be explained; the language server log has the details' };
}));

onRequest(connection, ExplainTargetsRequest, (params) => answered('explain/targets', params.ruleUri, () => explanations.targets(params),
  { traces: [], reason: 'the open traces could not be read; the language server log has the details' }));

// ---- what a rule file's change flips over the workspace's traces (lsp/ruleCompareRequest.ts) ----

onRequest(connection, RuleCompareRequest, async (params, token) => {
  try {
    const result = await compareRuleVersions(params, {
      documents, models, settings: () => settings, folders: workspaceFolderPaths,
      compareVersions: (sources, document, isCancelled) => rules.compareVersions(sources, document, isCancelled),
    }, () => token.isCancellationRequested);
    return result ?? new ResponseError(LSPErrorCodes.RequestCancelled, 'Request cancelled');
  } catch (error) {
    logFailure('rules/compare', params.uri, documents.get(params.uri)?.version, error);
    return { traces: 0, files: 0, flips: [], problem: 'the versions could not be compared; the language server log has the details' };
  }
});

onRequest(connection, ConvertToTraceRequest, (params) => {
  try {
    return convertDocument(documents.get(params.uri), params);
  } catch (error) {
    logFailure('convert', params.uri, documents.get(params.uri)?.version, error);
    return { error: 'the conversion failed; the language server log has the details', warnings: [], replaced: [] };
  }
});

onRequest(connection, ServerInfoRequest, () => ({ pid: globalThis.process?.pid ?? 0, version: serverVersion }));

// A generic JSON document that is a conversation by its content: the client gives it our language.
onRequest(connection, InspectArchiveTextRequest, (params) => inspectArchiveText(params, zipCodec, settings.maxFileSizeMB * bytesPerMB));

onRequest(connection, RecognizeDocumentRequest, (params) => {
  const language = languageForDocument(params.uri, params.languageId, params.text);
  return language === 'agent-trace-anthropic' || language === 'agent-trace-inspect' ? language : null;
});

documents.listen(connection);
connection.listen();
