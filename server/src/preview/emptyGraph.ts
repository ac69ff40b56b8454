import type { GraphData } from '../../../shared/protocol';
import type { Settings } from '../common/languageService';

/** A preview with nothing drawn: the start of every graph, and the answer when there is nothing to draw (`error` says why). */
export function emptyGraph(
  document: { uri: string; version: number; format: GraphData['format'] },
  preview: Settings['preview'],
  error?: string,
): GraphData {
  return {
    uri: document.uri,
    version: document.version,
    format: document.format,
    traceIndex: 0,
    traces: [],
    nodes: [],
    edges: [],
    height: 0,
    limits: { maxTextLength: preview.maxTextLength, maxNodes: preview.maxNodes },
    ...(error ? { error } : {}),
  };
}
