import { property, stringValue } from '../../json/queries';
import type { JsonNode } from '../../json/nodes';
import type { Line, LinesModel } from '../lines';
import { clip } from '../strings';

/** How a dataset trace is named in the outline and the preview's picker (Explorer: name, metadata.name, Run <index>). */
export function traceLabel(line: Line, ordinal: number): string {
  const root = line.root;
  const name = stringValue(property(root, 'name')?.value) ?? stringValue(property(property(root, 'metadata')?.value, 'name')?.value)
    ?? (root?.type === 'array' ? stringValue(property(property(root.items[0], 'metadata')?.value, 'name')?.value) : undefined);
  const index = property(root, 'index')?.value;
  const indexText = index?.type === 'number' ? index.raw : undefined;
  if (name) return indexText !== undefined ? `#${indexText} ${name}` : name;
  if (indexText !== undefined) return `#${indexText}`;
  return `Trace ${ordinal + 1}`;
}

export function eventsOf(line: Line): JsonNode[] {
  const root = line.root;
  if (root?.type === 'array') return root.items;
  const messages = property(root, 'messages')?.value;
  return messages?.type === 'array' ? messages.items : [];
}

/** The first user message of a trace, on one line. */
export function firstUserMessage(model: LinesModel, line: Line, max = 80): string | undefined {
  for (const event of eventsOf(line)) {
    if (stringValue(property(event, 'role')?.value) !== 'user') continue;
    const content = property(event, 'content')?.value;
    if (content?.type === 'string') return clip(content.value, max);
    if (content?.type === 'array') {
      for (const chunk of content.items) {
        const text = stringValue(property(chunk, 'text')?.value);
        if (text) return clip(text, max);
      }
    }
    if (content) return clip(model.text.slice(content.start, content.end), max);
  }
  return undefined;
}

export function eventCount(line: Line): number {
  const events = eventsOf(line);
  // A raw list may start with the trace's own metadata element.
  const first = events[0];
  const metadataFirst = first?.type === 'object' && first.properties.length > 0 && first.properties.every((p) => p.key === 'metadata');
  return metadataFirst ? events.length - 1 : events.length;
}

