/**
 * The language service for OpenAI Responses documents (a request body, a response, or a list of items, recognised
 * by content in any `.json` file): read once per version into the model of linked calls, with the shared features
 * (navigation by `call_id`, link problems, hover on ids, inlay hints, lenses) and this format's own (schema, docs,
 * completion, the did-you-mean fix for an output naming its call's item id).
 */
import { RecentModels } from '../common/recentModels';
import type { DocumentInput, LanguageService } from '../common/languageService';
import { definition } from '../calls/definition';
import { highlights, references } from '../calls/references';
import { prepareRename, rename, renameRefusal } from '../calls/rename';
import { inlayHints } from '../calls/inlayHints';
import { codeLenses } from '../calls/codeLenses';
import type { ConvertedTrace } from '../calls/sourcedEvents';
import { codeFixes } from './codeActions';
import { responsesTraces } from './events';
import { completion } from './completion';
import { folding } from './folding';
import { graph } from './graph';
import { hover } from './hover';
import { parseResponses, type ResponsesModel } from './model';
import { symbols } from './symbols';
import { validate } from './validate';

export type { ResponsesModel } from './model';
export { detectResponses } from './recognize';

const recentModels = new RecentModels<ResponsesModel>();

/** The Invariant trace of a Responses document's text. */
export function responsesTracesOfText(text: string): ConvertedTrace[] {
  return responsesTraces(recentModels.find(text) ?? parseResponses({ uri: '', version: 0, text }));
}

export const responsesService: LanguageService<ResponsesModel> = {
  parse: (doc: DocumentInput): ResponsesModel => recentModels.remember(parseResponses(doc)),
  validate,
  hover: (model, offset) => hover(model, offset),
  definition: (model, offset) => definition(model, offset),
  references: (model, offset, includeDeclaration) => references(model, offset, includeDeclaration),
  highlights: (model, offset) => highlights(model, offset),
  symbols: (model, budget) => symbols(model, budget),
  folding,
  completion: (model, offset) => completion(model, offset),
  graph: (model, options, context) => graph(model, options, context, options.problems ?? validate(model, context)),
  codeFixes,
  codeLenses: (model, context) => codeLenses(model, model.uri, context),
  inlayHints: (model, span, context) => inlayHints(model, span, context),
  prepareRename: (model, offset) => prepareRename(model, offset),
  renameRefusal: (model, offset) => renameRefusal(model, offset),
  rename: (model, offset, newName) => rename(model, offset, newName),
  calledTools: (model) => {
    const counts = new Map<string, number>();
    for (const call of model.calls) if (call.name) counts.set(call.name, (counts.get(call.name) ?? 0) + 1);
    return counts;
  },
};
