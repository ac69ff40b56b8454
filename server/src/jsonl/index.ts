import type { Budget } from '../common/budget';
import type { LanguageService, ServiceContext } from '../common/languageService';
import type { CompletionEntry, Highlight, HoverResult, OutlineItem, Problem, Target } from '../common/types';
import { agentguardCompletion } from './agentguard/completion';
import { agentguardDefinition } from './agentguard/definition';
import { agentguardHighlights } from './agentguard/highlights';
import { agentguardHover } from './agentguard/hover';
import { agentguardReferences } from './agentguard/references';
import { agentguardCalledTool } from './agentguard/tools';
import { agentguardGraph } from './agentguard/graph';
import { agentguardSymbols } from './agentguard/symbols';
import { validateAgentguard } from './agentguard/validate';
import { datasetPlace } from './dataset/annotations';
import {
  datasetCodeFixes, datasetInlayHints, datasetParsesWithEdits, datasetPrepareRename, datasetRefactorings, datasetRename, datasetRenameRefusal,
} from './dataset/codeActions';
import { datasetCodeLenses } from './dataset/codeLenses';
import { datasetCompletion } from './dataset/completion';
import { datasetDefinition } from './dataset/definition';
import { datasetGraph } from './dataset/graph';
import { datasetHighlights } from './dataset/highlights';
import { datasetHover } from './dataset/hover';
import { datasetReferences } from './dataset/references';
import { parseDatasetLine } from './dataset/parseLine';
import { datasetSymbols } from './dataset/symbols';
import { datasetCalledTools } from './dataset/tools';
import { isTraceLine } from './dataset/traceBridge';
import { validateDatasetLines } from './dataset/validate';
import { folding } from './folding';
import { lineAt, type LinesModel } from './lines';
import { placeAt } from './locate';
import { parseLines } from './model';
import { parseLinesAfterEdit } from './reparse';
import { outlineWithLimit } from './symbols';
import { validateLines } from './validate';

export type { LinesModel, Line, LineKind, FileFormat } from './lines';
export { detectJsonLinesFormat } from './detect';

/**
 * JSON Lines trace files, a family of formats: Invariant Explorer datasets (one trace per line, features in
 * dataset/) and agentguard tool-call logs (agentguard/). This dispatcher is the one file that knows the members: the
 * line under the cursor decides which answers (an agentguard entry is read as one in any file); file-wide requests
 * (checks, outline, preview) go by the file's format. The family's shared files (lines, model, locate, …) know no
 * member, and a member never imports this file.
 */
export const jsonlService: LanguageService<LinesModel> = {
  // A dataset line is read by the dataset's own reader, in one pass; other lines by the family's generic one.
  parse: (doc) => parseLines(doc, parseDatasetLine),
  reparse: (previous, doc, edit) => parseLinesAfterEdit(previous, doc, parseDatasetLine, edit),
  validate,
  hover,
  definition,
  references,
  highlights,
  symbols,
  folding,
  completion,
  graph: (model, options, context) => (model.format === 'agentguard' ? agentguardGraph(model, options, context) : datasetGraph(model, options, context)),
  calledTools,
  codeFixes: datasetCodeFixes,
  parsesWithEdits: datasetParsesWithEdits,
  inlayHints: datasetInlayHints,
  codeLenses: datasetCodeLenses,
  refactorings: datasetRefactorings,
  prepareRename: datasetPrepareRename,
  renameRefusal: datasetRenameRefusal,
  rename: datasetRename,
};

function validate(model: LinesModel, context: ServiceContext): Problem[] {
  return validateLines(model, context, (report) => (model.format === 'agentguard'
    ? validateAgentguard(model, context, report)
    : validateDatasetLines(model, context, report)));
}

/**
 * Datasets: one entry per trace (its name or index, event count, first user message) with its events below.
 * agentguard logs: one entry per call, `#<line> <tool>` with status and duration; failures and LLM spend marked.
 * `budget` is checked per line and inside each trace line's parse.
 */
function symbols(model: LinesModel, budget?: Budget): OutlineItem[] {
  const max = model.maxOutlineEntries;
  return model.format === 'agentguard'
    ? outlineWithLimit(model, agentguardSymbols(model, max, budget), (line) => line.kind === 'agentguard', 'calls')
    : outlineWithLimit(model, datasetSymbols(model, max, budget), (line) => line.kind === 'metadata' || isTraceLine(line), 'traces');
}

function hover(model: LinesModel, offset: number, context: ServiceContext): HoverResult | null {
  const place = placeAt(model, offset);
  if (!place) return null;
  return place.line.kind === 'agentguard' ? agentguardHover(place) : datasetHover(model, datasetPlace(model, place, offset), offset, context);
}

function definition(model: LinesModel, offset: number): Target[] {
  const place = placeAt(model, offset);
  if (!place) return [];
  return place.line.kind === 'agentguard' ? agentguardDefinition(model, offset) : datasetDefinition(model, datasetPlace(model, place, offset), offset);
}

function references(model: LinesModel, offset: number, includeDeclaration: boolean): Target[] {
  const place = placeAt(model, offset);
  if (!place) return [];
  return place.line.kind === 'agentguard'
    ? agentguardReferences(model, place.line, offset, includeDeclaration)
    : datasetReferences(model, datasetPlace(model, place, offset), offset, includeDeclaration);
}

function highlights(model: LinesModel, offset: number): Highlight[] {
  const place = placeAt(model, offset);
  if (!place) return [];
  return place.line.kind === 'agentguard' ? agentguardHighlights(model, offset) : datasetHighlights(model, datasetPlace(model, place, offset), offset);
}

/** A broken line of an agentguard log is still completed as an entry. */
function completion(model: LinesModel, offset: number, context: ServiceContext): CompletionEntry[] {
  const line = lineAt(model, offset);
  if (!line) return [];
  const place = placeAt(model, offset);
  if (line.kind === 'agentguard' || (model.format === 'agentguard' && line.kind === 'invalid')) {
    return place ? agentguardCompletion(model, place.path, place.steps[place.steps.length - 1].node, offset) : [];
  }
  return datasetCompletion(model, line, place && datasetPlace(model, place, offset), offset, context);
}

/** How often each tool is called in the file: agentguard entries by tool_name, dataset traces by their calls. */
function calledTools(model: LinesModel): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (name: string | undefined): void => {
    if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
  };
  for (const line of model.contentLines) {
    if (line.kind === 'agentguard') add(agentguardCalledTool(line));
    else datasetCalledTools(model, line, add);
  }
  return counts;
}
