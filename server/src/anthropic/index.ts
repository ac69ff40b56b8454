/**
 * The language service for Anthropic Messages conversations (`*.json`, or JSON Lines): request bodies, responses and
 * lists of messages, read into the model of linked calls, with their own checks, hovers, outline, completion and
 * preview. Recognised by content (recognize.ts); languages.ts sends such files here whatever the editor calls them.
 */
import { RecentModels } from '../common/recentModels';
import type { DocumentInput, LanguageService } from '../common/languageService';
import { codeLenses } from '../calls/codeLenses';
import { inlayHints } from '../calls/inlayHints';
import { countCalledTools, renameInConversations } from '../calls/rename';
import type { ConvertedTrace } from '../calls/sourcedEvents';
import { completion } from './completion';
import { conversationTraces } from './events';
import { folding } from './folding';
import { graph } from './graph';
import { hover } from './hover';
import { conversationAt, parseConversation } from './model';
import { definition, highlights, references } from './navigation';
import { recognizeConversation } from './recognize';
import { symbols } from './symbols';
import type { ConversationModel } from './types';
import { validate } from './validate';

export type { ConversationModel } from './types';
export { recognizeConversation } from './recognize';

/** Whether a file name says JSON Lines; otherwise the content decides (see recognizeConversation). */
export function namedAsJsonLines(uri: string): boolean | undefined {
  return /\.(jsonl|ndjson)(?:$|[?#])/i.test(uri) ? true : /\.json(?:$|[?#])/i.test(uri) ? false : undefined;
}

function isJsonLines(doc: DocumentInput): boolean {
  return namedAsJsonLines(doc.uri) ?? recognizeConversation(doc.text, undefined)?.lines ?? false;
}

const recentModels = new RecentModels<ConversationModel>();

/** The Invariant traces of a conversation's text (one per conversation it holds), `path` naming it JSON Lines or not. */
export function conversationTracesOfText(text: string, path: string): ConvertedTrace[] {
  const doc = { uri: path, version: 0, text };
  const lines = isJsonLines(doc);
  return conversationTraces(recentModels.find(text, (model) => model.lines === lines) ?? parseConversation(doc, lines));
}

export const anthropicService: LanguageService<ConversationModel> = {
  parse: (doc: DocumentInput) => recentModels.remember(parseConversation(doc, isJsonLines(doc))),
  validate,
  hover: (model, offset) => hover(model, offset),
  definition: (model, offset) => definition(model, offset),
  references,
  highlights,
  symbols: (model, budget) => symbols(model, budget),
  folding,
  completion: (model, offset) => completion(model, offset),
  graph: (model, options, context) => graph(model, options, context, options.problems ?? validate(model, context)),
  inlayHints: (model, span, context) => model.conversations.flatMap((conversation) => inlayHints(conversation, span, context)),
  codeLenses: (model, context) => (model.conversations.length === 1 ? codeLenses(model.conversations[0], model.uri, context) : []),
  ...renameInConversations(conversationAt),
  calledTools: (model) => countCalledTools(model.conversations),
};
