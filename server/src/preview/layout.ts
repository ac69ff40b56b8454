/**
 * The preview's layout, computed by the server so the webview only draws: boxes stacked top to bottom in one
 * column per lane, a message's calls drawn inside its box. Linear in the number of nodes. The sizes are the
 * GraphLayout constants the webview draws with.
 */
import { GraphLayout, type GraphNodeKind } from '../../../shared/protocol';

/** The lane a node is drawn in: 0 for messages and entries, 1 for calls, 2 for outputs. */
export function laneOf(kind: GraphNodeKind): number {
  return kind === 'output' ? 2 : kind === 'call' ? 1 : 0;
}

const nestedTop = GraphLayout.headerHeight + GraphLayout.lineHeight + GraphLayout.gap / 2;
const callStep = GraphLayout.callHeight + GraphLayout.gap / 2;

/** Height of an event's box: a header and a line, or room for the calls drawn inside it. */
export function eventHeight(nestedCalls: number): number {
  return nestedCalls > 0 ? nestedTop + nestedCalls * callStep : GraphLayout.headerHeight + GraphLayout.lineHeight;
}

/** Top of the index-th call drawn inside the event whose box starts at eventTop. */
export function nestedCallTop(eventTop: number, index: number): number {
  return eventTop + nestedTop + index * callStep;
}

export const nestedCallHeight = GraphLayout.callHeight;

/** Height of an agentguard entry's box: a second line when it shows a problem. */
export function entryHeight(hasProblems: boolean): number {
  return GraphLayout.headerHeight + GraphLayout.lineHeight * (hasProblems ? 2 : 1);
}

/** Places boxes one under the other with a gap between them. */
export class Column {
  private next = GraphLayout.padding;

  /** The top of a box of this height, placed under the previous one. */
  place(height: number): number {
    const top = this.next;
    this.next += height + GraphLayout.gap;
    return top;
  }

  /** The height of the whole column, padding included. */
  get height(): number {
    return this.next - GraphLayout.gap + GraphLayout.padding;
  }
}
