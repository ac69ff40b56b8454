import type { GraphOptions, ServiceContext } from '../../common/languageService';
import type { Problem } from '../../common/types';
import type { GraphData, GraphEdge, GraphNode, GraphNodeProblem } from '../../../../shared/protocol';
import { emptyGraph } from '../../preview/emptyGraph';
import { Column, entryHeight, laneOf } from '../../preview/layout';
import { lineAt, type Line, type LinesModel } from '../lines';
import { clip } from '../strings';
import { validateLines } from '../validate';
import { validateAgentguard } from './validate';
import { entryFacts } from './facts';
import { agentguardCalls } from './calls';
import { graphTotals } from '../../calls/stepGraph';

/** The session as a timeline of calls, each row marked with its line's problems; the log's totals in the header. */
export function agentguardGraph(model: LinesModel, options: GraphOptions, context: ServiceContext): GraphData {
  const entries = model.contentLines.filter((line) => line.kind === 'agentguard');
  const base = emptyGraph({ uri: model.uri, version: model.version, format: 'agentguard' }, context.settings.preview);
  if (entries.length === 0) return { ...base, error: 'This agentguard log holds no entries.' };
  const { maxTextLength } = context.settings.preview;
  // Each row carries its line's text: a log's rows are capped lower than a trace's nodes.
  const maxNodes = Math.min(context.settings.preview.maxNodes, context.settings.preview.maxLogEntries ?? Infinity);
  const problemsByLine = groupProblems(model, options.problems ?? validateLines(model, context, (report) => validateAgentguard(model, context, report)));
  const shown = entries.slice(0, Math.max(0, maxNodes));
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const column = new Column();
  shown.forEach((line, i) => {
    const facts = entryFacts(line);
    const problems = problemsByLine.get(line.number) ?? [];
    const fullText = model.text.slice(line.start, line.end);
    const height = entryHeight(problems.length > 0);
    const y = column.place(height);
    const selection = facts.toolNameNode ?? facts.callId;
    const node: GraphNode = {
      id: i,
      kind: 'entry',
      eventIndex: i,
      toolName: facts.toolName,
      callId: facts.callId?.value,
      title: `#${line.number + 1} ${facts.toolName ?? '(no tool name)'}`,
      summary: argumentSummary(model, line),
      text: fullText.length > maxTextLength ? fullText.slice(0, maxTextLength) : fullText,
      textLength: fullText.length,
      range: options.toRange({ start: line.start, end: line.end }),
      selection: options.toRange(selection ? { start: selection.start, end: selection.end } : { start: line.start, end: line.start }),
      problems,
      status: facts.status,
      failed: facts.failed,
      durationMs: facts.durationMs,
      retries: facts.retries,
      cost: facts.cost ?? null,
      lane: laneOf('entry'),
      y,
      height,
    };
    nodes.push(node);
    if (i > 0) edges.push({ from: i - 1, to: i, kind: 'sequence' });
  });
  return {
    ...base,
    nodes,
    edges,
    height: column.height,
    totals: graphTotals(agentguardCalls(model)),
    limits: { maxTextLength, maxNodes, ...(entries.length > shown.length ? { truncatedFrom: entries.length } : {}) },
  };
}

/** `lookup_order("A-1001", limit=3)` from the call's args and kwargs, as written. */
function argumentSummary(model: LinesModel, line: Line): string {
  const facts = entryFacts(line);
  const call = facts.call;
  if (call?.type !== 'object') return '';
  const parts: string[] = [];
  const args = call.properties.find((p) => p.key === 'args')?.value;
  if (args?.type === 'array') for (const item of args.items) parts.push(model.text.slice(item.start, item.end));
  const kwargs = call.properties.find((p) => p.key === 'kwargs')?.value;
  if (kwargs?.type === 'object') {
    for (const prop of kwargs.properties) if (prop.value) parts.push(`${prop.key}=${model.text.slice(prop.value.start, prop.value.end)}`);
  }
  return clip(`${facts.toolName ?? '?'}(${parts.join(', ')})`, 200);
}

function groupProblems(model: LinesModel, problems: Problem[]): Map<number, GraphNodeProblem[]> {
  const byLine = new Map<number, GraphNodeProblem[]>();
  for (const problem of problems) {
    if (problem.severity === 'hint' || problem.code === 'jsonl/too-many-problems') continue;
    const line = lineAt(model, problem.span.start);
    if (!line) continue;
    const list = byLine.get(line.number) ?? [];
    list.push({ severity: problem.severity, code: problem.code, message: problem.message });
    byLine.set(line.number, list);
  }
  return byLine;
}
