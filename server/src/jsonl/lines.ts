import type { LineIndex } from '../common/lineIndex';
import { lastStartingAtOrBefore } from '../common/spans';
import type { LruCache } from '../common/lru';
import type { Problem } from '../common/types';
import { property } from '../json/queries';
import type { JsonNode, JsonSyntaxError } from '../json/nodes';

/**
 * What a line holds. Datasets (Invariant Explorer): `metadata` row, `raw` event array, `annotated`
 * object with `messages`. agentguard logs: `agentguard` TraceEntry. Claude Code sessions: a `record`. Codex
 * rollouts: a `rollout` record.
 * `other`: valid JSON of neither shape.
 */
export type LineKind = 'blank' | 'invalid' | 'metadata' | 'raw' | 'annotated' | 'agentguard' | 'record' | 'rollout' | 'other';

export type FileFormat = 'dataset' | 'agentguard' | 'claude-code' | 'codex';

export interface Line {
  /** Zero-based line number in the document. */
  number: number;
  /** Offsets of the line's text, without its line break. */
  start: number;
  end: number;
  kind: LineKind;
  /** The parsed value; partial when the line has syntax errors. */
  root?: JsonNode;
  errors: JsonSyntaxError[];
  /**
   * For a trace line without syntax errors: every problem the single-trace service finds in it (unknown-key hints
   * included), found while the line's one parse was at hand.
   */
  traceProblems?: Problem[];
  /** For a trace line without syntax errors: the tool name of each of its calls (the workspace's tool index), found with the problems. */
  calledTools?: (string | undefined)[];
  /**
   * What a member's reader found in the line that does not depend on where the line is (spans relative to its start,
   * strings copied): kept as it is when an edit elsewhere moves the line (a Claude Code record's facts).
   */
  facts?: unknown;
  /** For an annotated line without syntax errors: the problems of its annotations, found when it was parsed. */
  annotationProblems?: Problem[];
}

export interface LinesModel {
  uri: string;
  version: number;
  text: string;
  lines: Line[];
  /** Lines that are not blank, in order. */
  contentLines: Line[];
  format: FileFormat;
  /** Built on first use. */
  readonly lineIndex: LineIndex;
  /** Per-line models of the single-trace service, built on first use (keyed by line number), the latest few kept. */
  traceModels: LruCache<number, unknown>;
  /** Lines past the line limit (DocumentInput.maxLines), not read; 0 when the whole file was read. */
  omittedLines: number;
  maxLines: number;
  /** Outline entries listed (DocumentInput.maxOutlineEntries); a last entry counts the rest. */
  maxOutlineEntries: number;
}

export function classify(root: JsonNode | undefined): LineKind {
  if (!root) return 'invalid';
  if (root.type === 'array') return 'raw';
  if (root.type !== 'object') return 'other';
  const first = root.properties[0];
  if (first?.key === 'call' && property(first.value, 'call_id')) return 'agentguard';
  if (property(root, 'messages')) return 'annotated';
  if (property(root, 'metadata')) return 'metadata';
  return 'other';
}

/** The line holding offset (a line break belongs to the line it ends). */
export function lineAt(model: LinesModel, offset: number): Line | undefined {
  const line = model.lines[lastStartingAtOrBefore(model.lines, offset)];
  return line && offset >= line.start && offset <= line.end ? line : undefined;
}

/** Traces of a dataset: raw and annotated lines. */
export function traceLines(model: LinesModel): Line[] {
  return model.contentLines.filter((line) => line.kind === 'raw' || line.kind === 'annotated');
}
