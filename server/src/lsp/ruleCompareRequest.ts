import type { TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { LineIndex } from '../common/lineIndex';
import { bytesPerMB, pathOfUri, readTextFile } from '../disk/files';
import type { ComparedViolation } from '../rulesOnTraces/compare';
import type { ServerSettings } from '../settings';
import { traceLayout } from '../traceFormats';
import type { DocumentModels } from './documentModels';
import { toRange, type PositionMapper } from './toProtocol';
import type { RuleCompareFlip, RuleCompareParams, RuleCompareResult, RuleCompareViolation } from '../../../shared/requests';

import { compareOverWorkspace, type TraceDocument } from '../rulesOnTraces/compareWorkspace';
import type { Comparison } from '../rulesOnTraces/comparison';
import type { RuleSource } from '../rulesOnTraces/workerProtocol';
import { loadRuleAuthoring } from './ruleAuthoringBundle';

export interface RuleCompareHost {
  documents: TextDocuments<TextDocument>;
  models: DocumentModels;
  settings(): ServerSettings;
  folders(): string[];
  /** Both versions on one document, on the rule evaluation workers; undefined when cancelled. */
  compareVersions(rules: [RuleSource, RuleSource], document: TraceDocument, isCancelled: () => boolean): Promise<Comparison | undefined>;
}

/**
 * "Compare with the committed version over the workspace's traces" (rulesOnTraces/compareWorkspace.ts): the rule
 * file's current text (open, or on disk) against the text the client read from git, on the open traces and the
 * workspace's trace files; each flip's violations at their places in the traces.
 */
export async function compareRuleVersions(params: RuleCompareParams, host: RuleCompareHost, isCancelled: () => boolean): Promise<RuleCompareResult | undefined> {
  const settings = host.settings();
  const empty = { traces: 0, files: 0, flips: [] };
  const current = await currentText(params.uri, host);
  if (typeof current !== 'string') return { ...empty, problem: current.problem };
  // Whether both versions load is decided by the evaluator's loader, from its own bundle (loaded on the first compare).
  const versions = loadRuleAuthoring().loadVersions(params.uri, params.oldText, current);
  if (typeof versions === 'string') return { ...empty, problem: versions };
  const sources: [RuleSource, RuleSource] = [{ uri: params.uri, text: params.oldText }, { uri: params.uri, text: current }];
  const open = host.documents.all().flatMap((document) => {
    const text = document.getText();
    const layout = traceLayout(host.models.languageOf(document), text);
    return layout ? [{ uri: document.uri, path: document.uri, text, layout }] : [];
  });
  const limits = { maxTraces: settings.guardrails.maxLensTraces, maxBytes: settings.indexMaxFileSizeMB * bytesPerMB, folders: host.folders(), maxJsonHeads: settings.workspaceMaxJsonFiles };
  const found = await compareOverWorkspace(open, limits, (document) => host.compareVersions(sources, document, isCancelled), isCancelled);
  if (!found) return undefined;
  const flips: RuleCompareFlip[] = [];
  for (const file of found.files) {
    if (file.comparison.flips.length === 0) continue;
    const positions: PositionMapper = host.documents.get(file.uri) ?? new LineIndex(file.text);
    const located = (v: ComparedViolation): RuleCompareViolation => ({ message: v.message, rule: v.rule, location: { uri: file.uri, range: toRange(positions, v.span) } });
    for (const flip of file.comparison.flips) {
      flips.push({
        uri: file.uri,
        ...(flip.line !== undefined ? { line: flip.line } : {}),
        added: flip.added.map(located),
        removed: flip.removed.map(located),
        ...(flip.oldFailure ? { oldError: flip.oldFailure } : {}),
        ...(flip.newFailure ? { newError: flip.newFailure } : {}),
      });
    }
  }
  const { notEvaluated } = found;
  return {
    traces: found.traces, files: found.filesCompared, flips,
    ...(found.limitNotice ? { limitNotice: found.limitNotice } : {}),
    ...(notEvaluated.traces > 0 ? { notEvaluated: { traces: notEvaluated.traces, reason: notEvaluated.reason ?? '' } } : {}),
  };
}

async function currentText(uri: string, host: RuleCompareHost): Promise<string | { problem: string }> {
  const open = host.documents.get(uri);
  if (open) return open.getText();
  const path = pathOfUri(uri);
  if (!path) return { problem: 'the rule file is neither open nor on disk' };
  const read = await readTextFile(path, { maxBytes: host.settings().maxFileSizeMB * bytesPerMB, setting: 'agentTraces.files.maxSizeMB' });
  return read.ok ? read.text : { problem: `the rule file cannot be read: ${read.reason}` };
}
