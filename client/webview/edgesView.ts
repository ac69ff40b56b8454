/** The SVG layer for the edges that cross the rendered window: call → output, sequence, and dangling references. */
import type { GraphEdge } from '../../shared/protocol';
import { svg } from './dom';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface EdgeGeometry {
  /** The node's box on screen, or undefined when it is not drawn (filtered out, or not in the graph). */
  boxOf(id: number): Box | undefined;
  titleOf(id: number): string;
}

const MAX_EDGES = 400;
const HEAD_Y = 13;

function circle(x: number, y: number, className: string, goto: number, label: string): SVGCircleElement {
  const end = svg('circle', className);
  end.setAttribute('cx', String(x));
  end.setAttribute('cy', String(y));
  end.setAttribute('r', '5');
  end.dataset.goto = String(goto);
  const title = svg('title');
  title.textContent = label;
  end.appendChild(title);
  return end;
}

function arrowDefs(): SVGDefsElement {
  const defs = svg('defs');
  for (const kind of ['output', 'implicit-output', 'dangling']) {
    const marker = svg('marker', `arrow arrow-${kind}`);
    marker.id = `arrow-${kind}`;
    marker.setAttribute('viewBox', '0 0 8 8');
    marker.setAttribute('refX', '7');
    marker.setAttribute('refY', '4');
    marker.setAttribute('markerWidth', '7');
    marker.setAttribute('markerHeight', '7');
    marker.setAttribute('orient', 'auto-start-reverse');
    const head = svg('path');
    head.setAttribute('d', 'M0,0 L8,4 L0,8 z');
    marker.appendChild(head);
    defs.appendChild(marker);
  }
  return defs;
}

/**
 * Redraws `layer` (positioned at `windowTop`, `windowHeight` tall) with every edge that crosses the window.
 * Returns the number of edges drawn.
 */
export function drawEdges(
  layer: SVGSVGElement,
  edges: GraphEdge[],
  geometry: EdgeGeometry,
  windowTop: number,
  windowHeight: number,
  layerWidth: number,
): number {
  layer.replaceChildren(arrowDefs());
  layer.style.top = `${windowTop}px`;
  layer.setAttribute('width', String(layerWidth));
  layer.setAttribute('height', String(Math.max(0, windowHeight)));
  const windowBottom = windowTop + windowHeight;
  const paths: SVGElement[] = [];
  const ends: SVGElement[] = [];
  let slot = 0;
  for (const edge of edges) {
    if (paths.length >= MAX_EDGES) break;
    const from = geometry.boxOf(edge.from);
    if (!from) continue;
    const to = edge.to >= 0 ? geometry.boxOf(edge.to) : undefined;
    if (edge.kind === 'dangling' || edge.to < 0) {
      if (from.y > windowBottom || from.y + from.height < windowTop) continue;
      const x = from.x + from.width;
      const y = from.y + HEAD_Y - windowTop;
      const path = svg('path', 'edge dangling');
      path.setAttribute('d', `M${x},${y} H${x + 14} V${y - 22}`);
      const title = svg('title');
      title.textContent = `${geometry.titleOf(edge.from)}: its call does not exist`;
      path.appendChild(title);
      paths.push(path);
      const cross = svg('path', 'edge-cross');
      cross.setAttribute('d', `M${x + 10},${y - 26} l8,8 m0,-8 l-8,8`);
      paths.push(cross);
      continue;
    }
    if (!to) continue;
    const top = Math.min(from.y, to.y);
    const bottom = Math.max(from.y + from.height, to.y + to.height);
    if (bottom < windowTop || top > windowBottom) continue;

    if (edge.kind === 'sequence') {
      const x1 = from.x + 12;
      const y1 = from.y + from.height - windowTop;
      const x2 = to.x + 12;
      const y2 = to.y - windowTop;
      if (y2 <= y1) continue;
      const path = svg('path', 'edge sequence');
      path.setAttribute('d', x1 === x2 ? `M${x1},${y1} V${y2}` : `M${x1},${y1} C${x1},${(y1 + y2) / 2} ${x2},${(y1 + y2) / 2} ${x2},${y2}`);
      paths.push(path);
      continue;
    }

    const path = svg('path', `edge ${edge.kind}`);
    let sx: number, sy: number, ex: number, ey: number;
    if (to.x >= from.x + from.width + 8) {
      sx = from.x + from.width;
      sy = from.y + Math.min(from.height / 2, HEAD_Y) - windowTop;
      ex = to.x;
      ey = to.y + HEAD_Y - windowTop;
      const mid = (sx + ex) / 2;
      path.setAttribute('d', `M${sx},${sy} C${mid},${sy} ${mid},${ey} ${ex},${ey}`);
    } else {
      sx = from.x + from.width;
      sy = from.y + Math.min(from.height / 2, HEAD_Y) - windowTop;
      ex = to.x + to.width;
      ey = to.y + HEAD_Y - windowTop;
      const gutter = Math.max(sx, ex) + 12 + (slot++ % 3) * 7;
      const direction = ey >= sy ? 1 : -1;
      const r = Math.min(6, Math.abs(ey - sy) / 2);
      path.setAttribute(
        'd',
        `M${sx},${sy} H${gutter - r} Q${gutter},${sy} ${gutter},${sy + direction * r} ` +
          `V${ey - direction * r} Q${gutter},${ey} ${gutter - r},${ey} H${ex + 2}`,
      );
    }
    path.setAttribute('marker-end', `url(#arrow-${edge.kind})`);
    paths.push(path);
    ends.push(circle(sx, sy, `edge-end ${edge.kind}`, edge.to, `Go to ${geometry.titleOf(edge.to)}`));
    ends.push(circle(ex, ey, `edge-end ${edge.kind}`, edge.from, `Go to ${geometry.titleOf(edge.from)}`));
  }
  layer.append(...paths, ...ends);
  return paths.length;
}
