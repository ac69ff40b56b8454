import type { DocumentInput, LanguageService, TextChange } from '../common/languageService';
import { codeFixes, refactorings } from './codeActions';
import { codeLenses } from './codeLenses';
import { completion } from './completion';
import { definition } from './definition';
import { folding } from './folding';
import { graph } from './graph';
import { highlights } from './highlights';
import { hover } from './hover';
import { inlayHints } from './inlayHints';
import { parseTrace, parseTraceInSlices, type TraceModel } from './model';
import { reread } from './incremental';
import { references } from './references';
import { carryEventProblems } from './reusedChecks';
import { prepareRename, rename, renameRefusal } from './rename';
import { symbols } from './symbols';
import { calledTools } from './tools';
import { validate, validateInSlices } from './validate';

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
  definition,
  references,
  highlights,
  symbols,
  folding,
  completion,
  graph,
  codeFixes,
  codeLenses,
  inlayHints,
  prepareRename,
  renameRefusal,
  rename,
  refactorings,
  calledTools: (model) => calledTools(model),
} satisfies LanguageService<TraceModel>;
