import {
  Contents, ImageChunk, MessageEvent, TextChunk, ToolCallEvent, ToolEvent, ToolOutputEvent,
} from './traceObjects';
import { PyDict, typeName, type Value } from './values';

/**
 * Every value of type `wanted` found in `data`, as the analyzer's `Selectable.select` walks it: the value itself
 * when its type matches, otherwise the fields it descends into (not into Function or ToolParameter).
 */
export function select(wanted: string, data: Value): Value[] {
  const out: Value[] = [];
  const walk = (v: Value): void => {
    if (typeName(v) === wanted) {
      out.push(v);
      return;
    }
    if (v instanceof MessageEvent) {
      walk(v.content);
      walk(v.role);
      walk(v.toolCalls);
    } else if (v instanceof ToolCallEvent) {
      walk(v.id);
      walk(v.type);
      walk(v.fn);
    } else if (v instanceof ToolOutputEvent) {
      walk(v.role);
      walk(v.content);
      walk(v.toolCallId);
    } else if (v instanceof ToolEvent) {
      walk(v.inputSchema);
    } else if (v instanceof Contents) {
      for (const c of v.chunks) walk(c);
    } else if (v instanceof ImageChunk) {
      walk(v.imageUrl);
    } else if (v instanceof TextChunk) {
      walk(v.text);
    } else if (Array.isArray(v)) {
      for (const x of v) walk(x);
    } else if (v instanceof PyDict) {
      for (const x of v.map.values()) walk(x);
    } else if (v !== null && typeof v === 'object' && 'items' in v && Array.isArray((v as { items: unknown }).items)) {
      for (const x of (v as { items: Value[] }).items) walk(x);
    }
  };
  walk(data);
  return out;
}
