import { defaultSettings, type Settings } from './common/languageService';
import { defaultCachedLineModels, defaultMaxLines, defaultMaxOutlineEntries } from './jsonl/model';
import { defaultMaxAlignmentWork } from './diff/diff';

/** The `agentTraces` section as the client sends it, with anything missing or malformed replaced by defaults. */
export interface ServerSettings extends Settings {
  validationDelay: number;
  maxTraceFiles: number;
  /** Milliseconds a request may work before it answers with no result (0: no limit). */
  requestTimeBudget: number;
  /** Files read from disk (previews of files too large to open, the tool index): larger ones are refused. */
  maxFileSizeMB: number;
  /** The tool index skips files larger than this and stops after reading this much in total. */
  indexMaxFileSizeMB: number;
  indexMaxTotalSizeMB: number;
  /** `.json` files of the workspace whose beginning is read (to find conversations, logs and spans) per walk, at most. */
  workspaceMaxJsonFiles: number;
  /** JSON Lines documents are read up to this many lines; a notice says how many were left out. */
  jsonlMaxLines: number;
  /** Entries of a JSON Lines outline; a last entry says how many more are not listed. */
  jsonlMaxOutlineEntries: number;
  /** Per-line trace models of a JSON Lines document kept (the most recently used). */
  jsonlCachedLineModels: number;
  /** Folders searched for the Python modules rule files import (relative to each workspace folder). */
  pythonPaths: string[];
  /** Bytes: larger Python module files are not read. */
  maxPythonFileSize: number;
  compare: {
    /** Steps compared per side; a notice says when a trace has more. */
    maxSteps: number;
    /** Work the alignment of two traces may do before the rest is paired by position, with a notice. */
    maxAlignmentWork: number;
    /** Keys (or dotted paths) left out of every comparison. */
    ignore: string[];
  };
  guardrails: {
    /** Globs of rule files (relative to each workspace folder) evaluated on every open trace. */
    policies: string[];
    severity: 'error' | 'warning' | 'information' | 'hint';
    /** Steps (rule-body evaluations and comprehension iterations) per rule and trace before the rule stops with a notice. */
    workBudget: number;
    /** Trace files of the workspace (besides the open ones) the rule files' code lenses count violations in. */
    maxLensTraces: number;
    /** Milliseconds a rule may run on one trace before it is stopped (its worker ended when it does not stop). */
    timeout: number;
    /** Policy parameters (`input.name`) of the rules evaluated in the editor, as `eval --param` gives them. */
    parameters: Record<string, unknown>;
  };
}

export const defaultServerSettings: ServerSettings = {
  ...defaultSettings,
  validationDelay: 200,
  maxTraceFiles: 2000,
  requestTimeBudget: 5000,
  maxFileSizeMB: 100,
  indexMaxFileSizeMB: 10,
  indexMaxTotalSizeMB: 200,
  workspaceMaxJsonFiles: 2000,
  jsonlMaxLines: defaultMaxLines,
  jsonlMaxOutlineEntries: defaultMaxOutlineEntries,
  jsonlCachedLineModels: defaultCachedLineModels,
  pythonPaths: [],
  maxPythonFileSize: 1_000_000,
  compare: { maxSteps: 200_000, maxAlignmentWork: defaultMaxAlignmentWork, ignore: [] },
  guardrails: { policies: [], severity: 'warning', workBudget: 1_000_000, maxLensTraces: 200, timeout: 5000, parameters: {} },
};

const severities = ['error', 'warning', 'information', 'hint'] as const;

function positiveNumber(value: unknown, fallback: number, minimum = 0): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= minimum ? value : fallback;
}

function plainObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {};
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry: unknown): entry is string => typeof entry === 'string' && entry.trim() !== '') : [];
}

export function readSettings(section: unknown): ServerSettings {
  const raw = (section && typeof section === 'object' ? section : {}) as Record<string, any>;
  const preview = (raw.preview && typeof raw.preview === 'object' ? raw.preview : {}) as Record<string, unknown>;
  return {
    maxProblems: positiveNumber(raw.maxProblems, defaultServerSettings.maxProblems, 1),
    maxRuleOutlineEntries: Math.floor(positiveNumber(raw.guardrails?.maxOutlineEntries, defaultServerSettings.maxRuleOutlineEntries!, 1)),
    unknownKeyHints: typeof raw.trace?.unknownKeyHints === 'boolean' ? raw.trace.unknownKeyHints : defaultServerSettings.unknownKeyHints,
    inlayHints: {
      callTargets: typeof raw.inlayHints?.callTargets === 'boolean' ? raw.inlayHints.callTargets : defaultServerSettings.inlayHints.callTargets,
      callAnswers: typeof raw.inlayHints?.callAnswers === 'boolean' ? raw.inlayHints.callAnswers : defaultServerSettings.inlayHints.callAnswers,
      durations: typeof raw.inlayHints?.durations === 'boolean' ? raw.inlayHints.durations : defaultServerSettings.inlayHints.durations,
    },
    maxCodeLenses: Math.floor(positiveNumber(raw.codeLens?.maxEvents, defaultServerSettings.maxCodeLenses)),
    preview: {
      maxNodes: positiveNumber(preview.maxNodes, defaultServerSettings.preview.maxNodes, 1),
      maxTextLength: positiveNumber(preview.maxTextLength, defaultServerSettings.preview.maxTextLength, 1),
      maxLogEntries: positiveNumber(preview.maxLogEntries, defaultServerSettings.preview.maxLogEntries!, 1),
    },
    validationDelay: positiveNumber(raw.validation?.delay, defaultServerSettings.validationDelay),
    maxTraceFiles: positiveNumber(raw.workspace?.maxTraceFiles, defaultServerSettings.maxTraceFiles),
    requestTimeBudget: positiveNumber(raw.requestTimeBudget, defaultServerSettings.requestTimeBudget),
    maxFileSizeMB: positiveNumber(raw.files?.maxSizeMB, defaultServerSettings.maxFileSizeMB),
    indexMaxFileSizeMB: positiveNumber(raw.workspace?.maxFileSizeMB, defaultServerSettings.indexMaxFileSizeMB),
    indexMaxTotalSizeMB: positiveNumber(raw.workspace?.maxTotalSizeMB, defaultServerSettings.indexMaxTotalSizeMB),
    workspaceMaxJsonFiles: Math.floor(positiveNumber(raw.workspace?.maxJsonFiles, defaultServerSettings.workspaceMaxJsonFiles)),
    jsonlMaxLines: positiveNumber(raw.jsonl?.maxLines, defaultServerSettings.jsonlMaxLines, 1),
    jsonlMaxOutlineEntries: Math.floor(positiveNumber(raw.jsonl?.maxOutlineEntries, defaultServerSettings.jsonlMaxOutlineEntries, 1)),
    jsonlCachedLineModels: Math.floor(positiveNumber(raw.jsonl?.cachedLineModels, defaultServerSettings.jsonlCachedLineModels, 1)),
    pythonPaths: strings(raw.guardrails?.pythonPaths),
    maxPythonFileSize: positiveNumber(raw.guardrails?.maxPythonFileSize, defaultServerSettings.maxPythonFileSize, 1),
    compare: {
      maxSteps: Math.floor(positiveNumber(raw.compare?.maxSteps, defaultServerSettings.compare.maxSteps, 1)),
      maxAlignmentWork: Math.floor(positiveNumber(raw.compare?.maxAlignmentWork, defaultServerSettings.compare.maxAlignmentWork, 1)),
      ignore: strings(raw.compare?.ignore),
    },
    guardrails: {
      policies: strings(raw.guardrails?.policies),
      severity: severities.includes(raw.guardrails?.severity) ? raw.guardrails.severity : defaultServerSettings.guardrails.severity,
      workBudget: Math.floor(positiveNumber(raw.guardrails?.workBudget, defaultServerSettings.guardrails.workBudget, 1)),
      maxLensTraces: Math.floor(positiveNumber(raw.guardrails?.maxLensTraces, defaultServerSettings.guardrails.maxLensTraces)),
      timeout: Math.floor(positiveNumber(raw.guardrails?.timeout, defaultServerSettings.guardrails.timeout, 100)),
      parameters: plainObject(raw.guardrails?.parameters),
    },
  };
}
