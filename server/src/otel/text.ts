/**
 * How spans and their calls read in hovers, the outline and the preview: a call as `name(key=value, …)`, a value's
 * text (a string as its characters, anything else as compact JSON), a span as its name with its duration and tokens.
 */
import { compactObject } from '../calls/labels';
import { formatDuration, formatTokens } from '../../../shared/format';
import { shorten } from '../common/text';
import type { JsonNode } from '../json/nodes';
import type { SpanCall, SpanStep } from './types';

/** Nodes turned into a plain value at most: a bigger value is cut (`…`). */
const maxNodes = 20_000;
const maxDepth = 64;

/** A node as a plain JS value, bounded; what it holds beyond the bound is left out. */
export function plainValue(node: JsonNode | undefined): unknown {
  let visited = 0;
  const visit = (at: JsonNode, depth: number): unknown => {
    visited++;
    switch (at.type) {
      case 'object': {
        const value: Record<string, unknown> = {};
        if (depth >= maxDepth) return value;
        for (const property of at.properties) {
          if (visited >= maxNodes) break;
          if (property.value) value[property.key] = visit(property.value, depth + 1);
        }
        return value;
      }
      case 'array': {
        const items: unknown[] = [];
        if (depth >= maxDepth) return items;
        for (const item of at.items) {
          if (visited >= maxNodes) break;
          items.push(visit(item, depth + 1));
        }
        return items;
      }
      case 'string':
        return at.value;
      case 'number':
        return Number(at.raw);
      default:
        return at.value;
    }
  };
  return node ? visit(node, 0) : undefined;
}

/** A value's text: a string as it reads, anything else as JSON, at most max characters, and its whole length. */
export function valueText(node: JsonNode | undefined, max: number): { text: string; length: number } {
  if (!node) return { text: '', length: 0 };
  const whole = node.type === 'string' ? node.value : JSON.stringify(plainValue(node), null, 2) ?? '';
  return { text: whole.slice(0, max), length: whole.length };
}

/** `write_file(text="2025")`: arguments given as an object, or as a string holding one. */
export function callLabel(call: SpanCall, max: number): string {
  const name = call.name ?? '?';
  const args = call.args;
  if (!args) return `${name}()`;
  const room = Math.max(8, max - name.length - 2);
  const source = args.type === 'string' ? args.value.slice(0, room * 8) : JSON.stringify(plainValue(args))?.slice(0, room * 8) ?? '';
  return shorten(`${name}(${compactObject(source, room)})`, max);
}

/** `2.52 ms · 285 tokens`: what the span records of its time and tokens. */
export function spanFigures(step: SpanStep): string {
  const parts: string[] = [];
  const duration = spanDuration(step);
  if (duration !== undefined) parts.push(formatDuration(duration));
  const tokens = step.usage ? formatTokens(step.usage) : undefined;
  if (tokens) parts.push(tokens);
  return parts.join(' · ');
}

export function spanDuration(step: SpanStep): number | undefined {
  return step.time !== undefined && step.endTime !== undefined && step.endTime >= step.time ? step.endTime - step.time : undefined;
}

/** `span #3 "execute_tool write_file"`. */
export function spanName(step: SpanStep): string {
  return `span #${step.index}${step.name !== undefined ? ` ${JSON.stringify(shorten(step.name, 60))}` : ''}`;
}
