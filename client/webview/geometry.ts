/** Where rows, boxes and edges sit on the preview's canvas: arithmetic over the projection, no DOM reads. */
import { GraphLayout, type GraphEdge, type GraphNode } from '../../shared/protocol';
import type { Box } from './edgesView';
import type { ViewModel } from './model';
import { nestedOffset, rowAt, type Extras, type Projection } from './projection';

const LANE_INDENT = 28;
const DEPTH_INDENT = 24;

/** How far a node is drawn to the right of its lane: a subagent's nodes under the call that ran them. */
export function depthIndent(node: GraphNode): number {
  return Math.min(4, node.depth ?? 0) * DEPTH_INDENT;
}
export const EDGE_GUTTER = 44;
const MAX_CONTENT_WIDTH = 760;

/** Left edge of a lane's boxes: side by side in columns, else indented under each other. */
export function contentLeft(lane: number, columns: boolean): number {
  return GraphLayout.padding + lane * (columns ? GraphLayout.laneWidth + GraphLayout.laneGap : LANE_INDENT);
}

export function contentWidth(lane: number, columns: boolean, viewportWidth: number): number {
  if (columns) return GraphLayout.laneWidth;
  const available = Math.max(viewportWidth, 320) - GraphLayout.padding - EDGE_GUTTER;
  const right = Math.min(available, GraphLayout.padding + MAX_CONTENT_WIDTH);
  return Math.max(200, right - contentLeft(lane, columns));
}

/** A scroll position that survives a new layout: the event at the top of the view and how far into it. */
export interface Anchor {
  eventIndex: number;
  offset: number;
}

export function anchorAt(projection: Projection, model: ViewModel, scrollTop: number): Anchor | undefined {
  if (projection.rows.length === 0) return undefined;
  const row = rowAt(projection, scrollTop);
  return { eventIndex: model.nodes[projection.rows[row]].eventIndex, offset: scrollTop - projection.tops[row] };
}

/** The scroll top that shows the anchor's event (or the next one shown) where it was; undefined with no rows. */
export function anchorTop(projection: Projection, model: ViewModel, anchor: Anchor): number | undefined {
  const nodes = model.nodes;
  let row = -1;
  for (let i = 0; i < projection.rows.length; i++) {
    if (nodes[projection.rows[i]].eventIndex >= anchor.eventIndex) {
      row = i;
      break;
    }
  }
  if (row < 0) row = projection.rows.length - 1;
  if (row < 0) return undefined;
  const exact = nodes[projection.rows[row]].eventIndex === anchor.eventIndex;
  const offset = exact ? Math.min(anchor.offset, projection.heights[row]) : 0;
  return projection.tops[row] + offset;
}

/** Edges with an end in, or a span across, the window: typed-array arithmetic only, as it visits every edge. */
export function edgesNear(projection: Projection, edges: GraphEdge[], windowTop: number, windowBottom: number): GraphEdge[] {
  const { rowOf, tops, heights } = projection;
  const count = rowOf.length;
  const near: GraphEdge[] = [];
  for (let i = 0; i < edges.length; i++) {
    const edge = edges[i];
    const from = edge.from >= 0 && edge.from < count ? rowOf[edge.from] : -1;
    if (from < 0) continue;
    const to = edge.to >= 0 && edge.to < count ? rowOf[edge.to] : from;
    if (to < 0) continue;
    const top = Math.min(tops[from], tops[to]);
    const bottom = Math.max(tops[from] + heights[from], tops[to] + heights[to]);
    if (bottom >= windowTop && top <= windowBottom) near.push(edge);
  }
  return near;
}

/** Where a node is on the canvas: its row's box, or inset inside its parent's box when drawn nested. */
export function boxOf(
  projection: Projection, model: ViewModel, extras: Extras, id: number,
  lanes: { left(lane: number): number; width(lane: number): number },
): Box | undefined {
  if (id < 0 || id >= model.nodes.length) return undefined;
  const row = projection.rowOf[id];
  if (row < 0) return undefined;
  const rowId = projection.rows[row];
  const rowNode = model.nodes[rowId];
  const x = lanes.left(rowNode.lane) + depthIndent(rowNode);
  const width = lanes.width(rowNode.lane) - depthIndent(rowNode);
  if (rowId === id) return { x, y: projection.tops[row], width, height: projection.heights[row] };
  const node = model.nodes[id];
  return {
    x: x + 10,
    y: projection.tops[row] + nestedOffset(model, extras, id),
    width: width - 20,
    height: node.height - 4 + (extras.get(id) ?? 0),
  };
}
