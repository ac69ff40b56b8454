/**
 * The language service for Inspect AI evaluation logs (`.json`, recognised by content whatever the file is called):
 * every sample's messages are a trace of their own in the model of linked calls (tool calls and the tool messages
 * naming them by tool_call_id), read lazily, one sample at a time; the shared features answer within the sample
 * under the cursor, and the outline and the preview go sample by sample.
 */
import { RecentModels } from '../common/recentModels';
import type { DocumentInput, LanguageService } from '../common/languageService';
import { codeLenses } from '../calls/codeLenses';
import { inlayHints } from '../calls/inlayHints';
import { countCalledTools, renameInConversations } from '../calls/rename';
import type { ConvertedTrace } from '../calls/sourcedEvents';
import { completion } from './completion';
import { sampleTraces } from './events';
import { folding } from './folding';
import { graph } from './graph';
import { hover } from './hover';
import { parseInspectLog, parseInspectLogInSlices, traceAt, traceOf } from './model';
import { definition, highlights, references } from './navigation';
import { symbols } from './symbols';
import type { InspectModel } from './types';
import { validate, validateInSlices } from './validate';

export type { InspectModel } from './types';
export { recognizeInspectLog } from './recognize';
export { placeName as inspectPlaceName } from './place';

const recentModels = new RecentModels<InspectModel>();

/** The Invariant traces of a log's text: one per sample, each converted when the caller reaches it. */
export function inspectTracesOfText(text: string): Iterable<ConvertedTrace> {
  return sampleTraces(recentModels.find(text) ?? parseInspectLog({ uri: '', version: 0, text }));
}

export const inspectService: LanguageService<InspectModel> = {
  parse: (doc: DocumentInput) => recentModels.remember(parseInspectLog(doc)),
  parseInSlices: async (doc, pause, sliceMs) => recentModels.remember(await parseInspectLogInSlices(doc, pause, sliceMs)),
  validate,
  validateInSlices,
  hover: (model, offset) => hover(model, offset),
  definition: (model, offset) => definition(model, offset),
  references,
  highlights,
  symbols: (model, budget) => symbols(model, budget),
  folding,
  completion: (model, offset) => completion(model, offset),
  graph: (model, options, context) => graph(model, options, context, options.problems ?? validate(model, context)),
  inlayHints: (model, span, context) => model.samples
    .filter((sample) => sample.span.end >= span.start && sample.span.start <= span.end)
    .flatMap((sample) => inlayHints(traceOf(model, sample), span, context)),
  codeLenses: (model, context) => (model.samples.length === 1 ? codeLenses(traceOf(model, model.samples[0]), model.uri, context) : []),
  ...renameInConversations(traceAt),
  calledTools: (model) => countCalledTools(model.samples.map((sample) => traceOf(model, sample))),
};
