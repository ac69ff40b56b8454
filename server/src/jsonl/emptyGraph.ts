import type { ServiceContext } from '../common/service';
import type { GraphData } from '../protocol';
import type { LinesModel } from './lines';

/** A graph of the file with nothing drawn yet (and why, when error is given). */
export function emptyGraph(model: LinesModel, format: GraphData['format'], context: ServiceContext, error?: string): GraphData {
  return {
    uri: model.uri,
    version: model.version,
    format,
    traceIndex: 0,
    traces: [],
    nodes: [],
    edges: [],
    height: 0,
    limits: { maxTextLength: context.settings.preview.maxTextLength, maxNodes: context.settings.preview.maxNodes },
    ...(error ? { error } : {}),
  };
}
