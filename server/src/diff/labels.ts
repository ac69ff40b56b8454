/**
 * How steps, calls and changed values read in a diff, on one line: `assistant: search_flights(from="ZRH")`,
 * `tool ← search_flights: "3 flights found"`, `"12A"`. Plain text (callers escape it where it lands).
 */
import { shorten } from '../common/text';
import type { FieldChange } from './fields';
import type { Step, StepCall } from './steps';
import { deepJson } from './values';

const valueLength = 60;

/** A value as JSON on one line, cut at `max` characters; `(none)` for a side without the field. */
export function valueLabel(value: unknown, max = valueLength): string {
  if (value === undefined) return '(none)';
  let text: string;
  try {
    text = deepJson(value);
  } catch {
    text = String(value);
  }
  return shorten(text, max);
}

/**
 * Two strings that differ, each cut to the stretch around where they start to differ, so that a long text changed
 * late shows its change: `"…contact: lily@bankofeurope.eu). The…"` and `"…contact: lily@bankofeurope.com). Th…"`.
 */
export function differingLabels(left: string, right: string, max = valueLength): [string, string] {
  const a = JSON.stringify(left);
  const b = JSON.stringify(right);
  if (a.length <= max && b.length <= max) return [a, b];
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  const context = Math.floor(max / 3);
  const from = prefix > context ? prefix - context : 0;
  const excerpt = (text: string) => {
    const head = from > 0 ? '"…' : '';
    const body = text.slice(from, from + max - head.length - 2);
    return from + body.length < text.length ? `${head}${body}…"` : `${head}${body}`;
  };
  return [excerpt(a), excerpt(b)];
}

/** `name(key="value", n=2)`: the arguments as written, each value on one line and short. */
export function callLabel(call: StepCall, max = 80): string {
  const fn = (call.value as { function?: { arguments?: unknown } } | undefined)?.function;
  return namedCallLabel(call.name ?? '?', call.step.kind === 'entry' ? entryArguments(call.value) : fn?.arguments, max);
}

export function namedCallLabel(name: string, args: unknown, max = 80): string {
  return shorten(`${name}(${argumentsLabel(args)})`, max);
}

function argumentsLabel(args: unknown): string {
  if (args === undefined || args === null) return '';
  if (typeof args !== 'object' || Array.isArray(args)) return valueLabel(args, 40);
  return Object.entries(args as Record<string, unknown>).map(([key, value]) => `${key}=${shortValue(value)}`).join(', ');
}

function shortValue(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? '[]' : '[…]';
  if (typeof value === 'object' && value !== null) return Object.keys(value).length === 0 ? '{}' : '{…}';
  return valueLabel(typeof value === 'string' ? value.replace(/\s+/g, ' ') : value, 24);
}

/** agentguard's `args` and `kwargs` as one call: `lookup_order(1001, limit=3)`. */
function entryArguments(call: unknown): Record<string, unknown> {
  const record = (call ?? {}) as { args?: unknown; kwargs?: unknown };
  const shown: Record<string, unknown> = {};
  if (Array.isArray(record.args)) record.args.forEach((value, i) => (shown[`#${i}`] = value));
  if (typeof record.kwargs === 'object' && record.kwargs !== null) Object.assign(shown, record.kwargs);
  return shown;
}

/** The text of a step's content on one line (chunks' texts joined), quoted. */
export function contentLabel(content: unknown, max = valueLength): string {
  const text = contentText(content, max * 4);
  return text === undefined ? '' : valueLabel(text.replace(/\s+/g, ' ').trim(), max);
}

/** A step's content as text: a string, the texts of its chunks, or JSON; undefined when it has none. */
export function contentText(content: unknown, max: number): string | undefined {
  if (content === undefined || content === null) return undefined;
  if (typeof content === 'string') return content.slice(0, max);
  if (Array.isArray(content)) {
    const parts: string[] = [];
    let length = 0;
    for (const chunk of content) {
      if (length >= max) break;
      const text = (chunk as { text?: unknown } | null)?.text;
      const part = typeof text === 'string' ? text : (chunk as { type?: unknown } | null)?.type === 'image_url' || (chunk as { image_url?: unknown } | null)?.image_url ? '[image]' : deepJson(chunk);
      parts.push(part.slice(0, max - length));
      length += part.length + 1;
    }
    return parts.join('\n');
  }
  return deepJson(content).slice(0, max);
}

/** What a step is: its role, and its calls, the call it answers or the start of its text. */
export function stepLabel(step: Step): string {
  const raw = step.raw as Record<string, unknown> | undefined;
  switch (step.kind) {
    case 'call':
      return `call: ${callLabel(step.calls[0])}`;
    case 'entry':
      return `${callLabel(step.calls[0])}${entryStatus(step) ? `: ${entryStatus(step)}` : ''}`;
    case 'output': {
      const content = contentLabel(raw?.content);
      return `${outputSubject(step)}${content ? `: ${content}` : ''}`;
    }
    case 'tools':
    case 'metadata':
    case 'invalid':
      return stepHeading(step).title;
    default: {
      const role = step.role ?? 'message';
      if (step.calls.length > 0) return `${role}: ${step.calls.map((call) => callLabel(call, 60)).join(', ')}`;
      const content = contentLabel(raw?.content);
      return content ? `${role}: ${content}` : role;
    }
  }
}

function entryStatus(step: Step): string | undefined {
  const status = ((step.raw as Record<string, unknown> | undefined)?.result as { status?: unknown } | undefined)?.status;
  return typeof status === 'string' ? shorten(status, 30) : undefined;
}

/** A step as the compare view heads it: what it is, and what it holds on one line (text unquoted). */
export function stepHeading(step: Step): { title: string; summary: string } {
  const raw = step.raw as Record<string, unknown> | undefined;
  const text = (content: unknown) => (contentText(content, 400) ?? '').replace(/\s+/g, ' ').trim();
  switch (step.kind) {
    case 'call':
      return { title: 'call', summary: callLabel(step.calls[0], 200) };
    case 'entry':
      return { title: step.calls[0].name ?? 'tool call', summary: `${callLabel(step.calls[0], 200)}${entryStatus(step) ? ` → ${entryStatus(step)}` : ''}` };
    case 'output':
      return { title: outputSubject(step), summary: text(raw?.content) };
    case 'tools': {
      const tools = Array.isArray(raw?.tools) ? raw.tools.map((tool) => (tool as { name?: unknown } | null)?.name).filter((name) => typeof name === 'string') : [];
      return { title: 'tools', summary: tools.join(', ') };
    }
    case 'metadata':
      return { title: 'metadata', summary: Object.keys((raw?.metadata as object | undefined) ?? {}).join(', ') };
    case 'invalid':
      return { title: 'invalid event', summary: valueLabel(step.raw, 200) };
    default:
      return {
        title: step.role ?? 'message',
        summary: step.calls.length > 0 ? step.calls.map((call) => callLabel(call, 100)).join(', ') : text(raw?.content),
      };
  }
}

/** `function.arguments.seat` reads as `arguments.seat`: the function is the call's own. */
function withoutFunction(path: string): string {
  return path.startsWith('function.') ? path.slice('function.'.length) : path;
}

function outputSubject(step: Step): string {
  return step.answers?.name !== undefined ? `tool ← ${step.answers.name}` : 'tool';
}

/**
 * A changed field as the plain form prints it: what it belongs to (the call's tool, the role, the output) and its
 * path from there: `book_flight: arguments.seat`, `user: content`.
 */
export function fieldSubject(step: Step, other: Step, field: FieldChange): { subject: string; path: string } {
  const inCall = /^tool_calls\.(\d+)\.(.+)$/.exec(field.path);
  if (inCall) {
    const call = step.calls.find((c) => c.path === `tool_calls.${inCall[1]}`) ?? other.calls.find((c) => c.path === `tool_calls.${inCall[1]}`);
    return { subject: call?.name ?? step.role ?? 'call', path: withoutFunction(inCall[2]) };
  }
  if (step.kind === 'call') return { subject: step.calls[0]?.name ?? 'call', path: withoutFunction(field.path) };
  if (step.kind === 'entry') return { subject: step.calls[0]?.name ?? 'entry', path: field.path };
  if (step.kind === 'output') return { subject: outputSubject(step), path: field.path };
  // A step making one call is named by its tool, whatever field of it changed.
  if (field.path === '' && step.calls.length === 1 && step.calls[0].name !== undefined) return { subject: step.calls[0].name, path: '' };
  return { subject: step.role ?? step.kind, path: field.path };
}
