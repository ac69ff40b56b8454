import type { LanguageService, ServiceContext } from '../common/languageService';
import type { CompletionEntry, Highlight, HoverResult, Target } from '../common/types';
import { agentguardCompletion } from './agentguard/completion';
import { agentguardDefinition } from './agentguard/definition';
import { agentguardHighlights } from './agentguard/highlights';
import { agentguardHover } from './agentguard/hover';
import { agentguardReferences } from './agentguard/references';
import { agentguardCalledTool } from './agentguard/tools';
import { agentguardGraph } from './agentguard/graph';
import {
  datasetCodeFixes, datasetInlayHints, datasetPrepareRename, datasetRefactorings, datasetRename, datasetRenameRefusal,
} from './dataset/codeActions';
import { datasetCodeLenses } from './dataset/codeLenses';
import { datasetCompletion } from './dataset/completion';
import { datasetDefinition } from './dataset/definition';
import { datasetGraph } from './dataset/graph';
import { datasetHighlights } from './dataset/highlights';
import { datasetHover } from './dataset/hover';
import { datasetReferences } from './dataset/references';
import { datasetCalledTools } from './dataset/tools';
import { folding } from './folding';
import { lineAt, type LinesModel } from './lines';
import { placeAt } from './locate';
import { parseLines } from './model';
import { parseLinesAfterEdit } from './reparse';
import { symbols } from './symbols';
import { validate } from './validate';

export type { LinesModel, Line, LineKind, FileFormat } from './lines';
export { detectJsonLinesFormat } from './detect';

/**
 * JSON Lines trace files: Invariant Explorer datasets (one trace per line, features in dataset/) and agentguard
 * tool-call logs (agentguard/). The line under the cursor decides which answers: an agentguard entry is read as
 * one in any file; file-wide requests (outline, preview) go by the file's format.
 */
export const jsonlService: LanguageService<LinesModel> = {
  parse: parseLines,
  reparse: parseLinesAfterEdit,
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
  inlayHints: datasetInlayHints,
  codeLenses: datasetCodeLenses,
  refactorings: datasetRefactorings,
  prepareRename: datasetPrepareRename,
  renameRefusal: datasetRenameRefusal,
  rename: datasetRename,
};

function hover(model: LinesModel, offset: number, context: ServiceContext): HoverResult | null {
  const place = placeAt(model, offset);
  if (!place) return null;
  return place.line.kind === 'agentguard' ? agentguardHover(place) : datasetHover(model, place, offset, context);
}

function definition(model: LinesModel, offset: number): Target[] {
  const place = placeAt(model, offset);
  if (!place) return [];
  return place.line.kind === 'agentguard' ? agentguardDefinition(model, offset) : datasetDefinition(model, place, offset);
}

function references(model: LinesModel, offset: number, includeDeclaration: boolean): Target[] {
  const place = placeAt(model, offset);
  if (!place) return [];
  return place.line.kind === 'agentguard'
    ? agentguardReferences(model, place.line, offset, includeDeclaration)
    : datasetReferences(model, place, offset, includeDeclaration);
}

function highlights(model: LinesModel, offset: number): Highlight[] {
  const place = placeAt(model, offset);
  if (!place) return [];
  return place.line.kind === 'agentguard' ? agentguardHighlights(model, offset) : datasetHighlights(model, place, offset);
}

/** A broken line of an agentguard log is still completed as an entry. */
function completion(model: LinesModel, offset: number, context: ServiceContext): CompletionEntry[] {
  const line = lineAt(model, offset);
  if (!line) return [];
  const place = placeAt(model, offset);
  if (line.kind === 'agentguard' || (model.format === 'agentguard' && line.kind === 'invalid')) {
    return place ? agentguardCompletion(model, place.path, place.steps[place.steps.length - 1].node, offset) : [];
  }
  return datasetCompletion(model, line, place, offset, context);
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
