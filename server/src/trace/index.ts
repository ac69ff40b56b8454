import type { DocumentInput, LanguageService, TextChange } from '../common/languageService';
import { codeFixes, parsesWithEdits, refactorings } from './codeActions';
import { completion } from './completion';
import { folding } from './folding';
import { graph } from './graph';
import { hover } from './hover';
import { parseTrace, parseTraceInSlices, type TraceModel } from './model';
import { reread } from './incremental';
import { carryEventProblems } from './reusedChecks';
import { symbols } from './symbols';
import { calledTools } from './tools';
import { validate, validateInSlices } from './validate';
import { traceCalls } from './calls';
import { definition } from '../calls/definition';
import { highlights, references } from '../calls/references';
import { prepareRename, rename, renameRefusal } from '../calls/rename';
import { inlayHints } from '../calls/inlayHints';
import { codeLenses } from '../calls/codeLenses';

export type { TraceModel } from './model';
export { parseTrace } from './model';
export { collectProblems } from './validate';

/** The language service for `*.trace.json`: one agent trace per document. */
export const traceService = {
  parse(doc: DocumentInput): TraceModel {
    const model = parseTrace(doc.text, 0, doc.text.length, doc.budget);
    model.uri = doc.uri;
    model.version = doc.version;
    return model;
  },
  reparse(previous: TraceModel, doc: DocumentInput, change: TextChange | undefined): TraceModel | undefined {
    // Without the editor's edits, the whole text is read: finding the change by comparison is left to JSON Lines.
    const read = change && reread(previous, doc.source ?? doc.text, change);
    if (!read) return undefined;
    carryEventProblems(previous, read.model, read.step);
    read.model.uri = doc.uri;
    read.model.version = doc.version;
    return read.model;
  },
  async parseInSlices(doc: DocumentInput, pause: () => Promise<void>, sliceMs: number): Promise<TraceModel> {
    const model = await parseTraceInSlices(doc.text, doc.budget, pause, sliceMs);
    model.uri = doc.uri;
    model.version = doc.version;
    return model;
  },
  validate,
  validateInSlices,
  hover,
  definition: (model, offset) => definition(traceCalls(model), offset),
  references: (model, offset, includeDeclaration) => references(traceCalls(model), offset, includeDeclaration),
  highlights: (model, offset) => highlights(traceCalls(model), offset),
  symbols,
  folding,
  completion,
  graph,
  codeFixes,
  parsesWithEdits,
  codeLenses: (model, context) => codeLenses(traceCalls(model), model.uri, context),
  inlayHints: (model, span, context) => inlayHints(traceCalls(model), span, context),
  prepareRename: (model, offset) => prepareRename(traceCalls(model), offset),
  renameRefusal: (model, offset) => renameRefusal(traceCalls(model), offset),
  rename: (model, offset, newName) => rename(traceCalls(model), offset, newName),
  refactorings,
  calledTools: (model) => calledTools(model),
} satisfies LanguageService<TraceModel>;
