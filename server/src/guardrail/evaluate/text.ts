import { Contents, ImageChunk, MessageEvent, ToolOutputEvent } from './traceObjects';
import { isStr, str, type Value } from './values';

/** The analyzer's `text(...)`: the text strings in contents, messages, outputs, strings and nested lists (same objects). */
export function textsOf(args: Value[]): Value[] {
  const out: Value[] = [];
  const walk = (v: Value): void => {
    if (v === null || v === undefined) return;
    if (v instanceof Contents) for (const t of v.texts()) out.push(t);
    else if (v instanceof MessageEvent || v instanceof ToolOutputEvent) walk(v.content);
    else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (isStr(v)) out.push(v);
  };
  for (const a of args) walk(a);
  return out;
}

/** The analyzer's `image(...)`: image URLs in contents, messages, outputs, image chunks, and base64 PNG/JPEG strings. */
export function imagesOf(args: Value[]): Value[] {
  const out: Value[] = [];
  const walk = (v: Value): void => {
    if (v === null || v === undefined) return;
    if (v instanceof Contents) for (const t of v.images()) out.push(t);
    else if (v instanceof MessageEvent || v instanceof ToolOutputEvent) walk(v.content);
    else if (v instanceof ImageChunk) out.push(v.url);
    else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (isStr(v)) {
      const s = str(v)!;
      if (s.startsWith('data:image/png;base64,') || s.startsWith('data:image/jpeg;base64,')) out.push(v);
    }
  };
  for (const a of args) walk(a);
  return out;
}
