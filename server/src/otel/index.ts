/**
 * The language service for OpenTelemetry GenAI spans (OTLP/JSON as the collector's file exporter writes it, one
 * object per line or one document, and any-agent's `{"spans": [...]}`), recognised by content: read once per
 * version into a tree of spans per trace and the model of linked calls, with the shared features (navigation
 * between calls and results, link problems, hovers on ids, inlay hints, lenses) and this format's own (the span
 * tree in the outline and the preview, durations and tokens, hovers on spans, ids and attributes).
 */
import type { DocumentInput, LanguageService } from '../common/languageService';
import { RecentModels } from '../common/recentModels';
import { prepareRename, renameRefusal } from '../calls/rename';
import { inlayHints } from '../calls/inlayHints';
import { codeLenses } from '../calls/codeLenses';
import type { FoldingSpan } from '../common/types';
import type { JsonNode } from '../json/nodes';
import { graph } from './graph';
import { hover } from './hover';
import { parseSpans } from './model';
import { definition, highlights, references, traceAt } from './navigation';
import { symbols } from './symbols';
import type { SpansModel } from './types';
import { validate } from './validate';
import type { ConvertedTrace } from '../calls/sourcedEvents';
import { spansTraces } from './events';

export type { SpansModel } from './types';
export { detectSpans } from './recognize';

const defaultOutlineEntries = 10_000;
const outlineLimits = new WeakMap<SpansModel, number>();

/** The documents read last: the rules that evaluate an open file of spans convert the model the editor already read. */
const recentModels = new RecentModels<SpansModel>();

/** The Invariant traces of a file of spans, one per trace it holds. */
export function spansTracesOfText(text: string): ConvertedTrace[] {
  return spansTraces(recentModels.find(text) ?? parseSpans({ uri: '', version: 0, text }));
}

export const spansService: LanguageService<SpansModel> = {
  parse: (doc: DocumentInput): SpansModel => {
    const model = parseSpans(doc);
    outlineLimits.set(model, doc.maxOutlineEntries ?? defaultOutlineEntries);
    return recentModels.remember(model);
  },
  validate,
  hover: (model, offset) => hover(model, offset),
  definition: (model, offset) => definition(model, offset),
  references: (model, offset, includeDeclaration) => references(model, offset, includeDeclaration),
  highlights: (model, offset) => highlights(model, offset),
  symbols: (model, budget) => symbols(model, outlineLimits.get(model) ?? defaultOutlineEntries, budget),
  folding,
  completion: () => [],
  graph: (model, options, context) => graph(model, options, context, options.problems ?? validate(model, context)),
  codeLenses: (model, context) => model.traces.flatMap((trace) => codeLenses(trace, model.uri, context)),
  inlayHints: (model, span, context) => model.traces.flatMap((trace) => inlayHints(trace, span, context)),
  prepareRename: (model, offset) => {
    const trace = traceAt(model, offset);
    return trace ? prepareRename(trace, offset) : null;
  },
  renameRefusal: (model, offset) => {
    const trace = traceAt(model, offset);
    return trace ? renameRefusal(trace, offset) : undefined;
  },
  calledTools: (model) => {
    const counts = new Map<string, number>();
    for (const trace of model.traces) for (const call of trace.calls) if (call.name) counts.set(call.name, (counts.get(call.name) ?? 0) + 1);
    return counts;
  },
};

const maxFoldDepth = 64;

/** One folding range per object or array over several lines: each span, its attributes, the JSON around them. */
function folding(model: SpansModel): FoldingSpan[] {
  const spans: FoldingSpan[] = [];
  const text = model.text;
  const stack: { node: JsonNode; depth: number }[] = model.lines ? [] : model.root ? [{ node: model.root, depth: 0 }] : [];
  while (stack.length > 0 && spans.length < 100_000) {
    const { node, depth } = stack.pop()!;
    if (depth > maxFoldDepth || (node.type !== 'object' && node.type !== 'array')) continue;
    const newline = text.indexOf('\n', node.start);
    if (newline === -1 || newline >= node.end) continue;
    spans.push({ start: node.start, end: node.end });
    const children = node.type === 'object' ? node.properties.map((property) => property.value) : node.items;
    for (const child of children) if (child) stack.push({ node: child, depth: depth + 1 });
  }
  return spans.sort((a, b) => a.start - b.start);
}
