import type { ServiceContext } from '../../common/languageService';
import type { HoverResult } from '../../common/types';
import { codeBlock, escapeMarkdown, inlineCode, quote } from '../../common/markdown';
import type { Annotation } from './annotations';
import type { LinesModel } from '../lines';
import type { DatasetPlace } from './annotations';
import { clip } from '../strings';
import { isTraceLine, lineTraceService, traceModelOf } from './traceBridge';
import { lookup } from '../../common/lookup';

const MAX_SHOWN = 2000;

/** Explanations of the keys a dataset line itself holds (events are explained by the trace service). */
const DATASET_KEYS: Record<string, string> = lookup({
  messages: 'The events of this trace, in order (messages, tool calls, tool outputs).',
  annotations: 'Notes attached to parts of this trace: each has a `content` and an `address` naming what it is about.',
  index: 'Position of this trace in the dataset. When one trace has an index every trace needs one, each different.',
  name: 'Display name of this trace.',
  hierarchy_path: 'Folders the trace is shown under, outermost first.',
  metadata: 'Free-form facts about this trace (model, run, scores…).',
  id: 'The identifier Invariant Explorer gave this trace.',
  dataset: 'The Invariant Explorer dataset this trace was exported from (its identifier).',
  user_id: 'The Invariant Explorer user who uploaded this trace.',
  user: 'The Invariant Explorer user who uploaded this trace, as Explorer describes users.',
  extra_metadata: 'Free-form facts about this trace, as Invariant Explorer stores them (its upload reads them from `metadata`).',
  time_created: 'When this trace was added to Invariant Explorer.',
});

/** An annotation and what its address names, else the trace service, else the keys of a dataset line. */
export function datasetHover(model: LinesModel, place: DatasetPlace, offset: number, context: ServiceContext): HoverResult | null {
  if (place.annotation && (place.onAddress || place.path[2] === 'content')) {
    const hovered = annotationHover(place.annotation, place.onAddress ?? false);
    if (hovered) return hovered;
  }
  if (isTraceLine(place.line)) {
    const fromTrace = lineTraceService.hover(traceModelOf(model, place.line), offset, context);
    if (fromTrace) return fromTrace;
  }
  return datasetKeyHover(place);
}

/** The keys of a dataset line the single-trace format does not explain. */
function datasetKeyHover(place: DatasetPlace): HoverResult | null {
  const last = place.steps[place.steps.length - 1];
  if (!last.onKey || !last.property || place.path.length !== 1) return null;
  const key = last.property.key;
  const span = { start: last.property.keyStart, end: last.property.keyEnd };
  if (place.line.kind === 'metadata' && key === 'metadata') {
    return { span, markdown: '**Dataset metadata**\n\nFacts about the whole dataset. Only the first line of the file may hold it, and only once.' };
  }
  if (place.line.kind === 'annotated' && Object.hasOwn(DATASET_KEYS, key)) return { span, markdown: `**${key}** (dataset trace)\n\n${DATASET_KEYS[key]}` };
  return null;
}

function annotationHover(annotation: Annotation, onAddress: boolean): HoverResult | null {
  const address = annotation.address;
  const resolution = annotation.resolution;
  if (!address || !resolution) return null;
  const span = onAddress ? { start: address.start, end: address.end } : { start: annotation.content!.start, end: annotation.content!.end };
  if (!resolution.ok) return { span, markdown: `**Annotation address** ${inlineCode(address.value)}\n\n${escapeMarkdown(resolution.message)}` };
  const annotated = resolution.annotatedText();
  const shown = annotated.length > MAX_SHOWN ? `${annotated.slice(0, MAX_SHOWN)}…` : annotated;
  const content = annotation.content?.type === 'string' ? annotation.content.value : '';
  const lines = [
    `**Annotation** on ${escapeMarkdown(resolution.description)}`,
    '',
    codeBlock(shown),
  ];
  if (onAddress && content) lines.push('', quote(clip(content, 300)));
  if (annotated.length > MAX_SHOWN) lines.push('', `_${annotated.length} characters in all._`);
  return { span, markdown: lines.join('\n') };
}
