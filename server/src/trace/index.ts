import type { DocumentInput, LanguageService } from '../common/service';
import { parseTrace, type TraceModel } from './model';
import { validateTrace } from './validate';
import { traceHover } from './hover';
import { traceDefinition } from './definition';
import { traceReferences } from './references';
import { traceHighlights } from './highlights';
import { traceSymbols } from './symbols';
import { traceFolding } from './folding';
import { traceCompletion } from './completion';
import { traceGraph } from './graph';
import { traceCalledTools } from './tools';

export type { TraceModel } from './model';
export { parseTrace } from './model';
export { validateTrace, collectProblems } from './validate';
export { traceHover } from './hover';
export { traceDefinition } from './definition';
export { traceReferences } from './references';
export { traceHighlights } from './highlights';
export { traceSymbols } from './symbols';
export { traceFolding } from './folding';
export { traceCompletion } from './completion';
export { traceGraph } from './graph';
export { traceCalledTools } from './tools';

/** The language service for `*.trace.json`: one agent trace per document. */
export const traceService = {
  parse(doc: DocumentInput): TraceModel {
    const model = parseTrace(doc.text, 0, doc.text.length, doc.budget);
    model.uri = doc.uri;
    model.version = doc.version;
    return model;
  },
  validate: validateTrace,
  hover: traceHover,
  definition: traceDefinition,
  references: traceReferences,
  highlights: traceHighlights,
  symbols: traceSymbols,
  folding: traceFolding,
  completion: traceCompletion,
  graph: traceGraph,
  calledTools: (model) => traceCalledTools(model),
} satisfies LanguageService<TraceModel>;
