import type { Problem } from '../../common/types';
import type { ServiceContext } from '../../common/languageService';
import {
  ENTRY_SPEC, STATUS_VALUES, USAGE_KINDS, VALIDATION_KINDS, compareTimestamps, describeFieldType, timestampKey, type FieldSpec,
} from './schema';
import { entryFacts } from './facts';
import { property } from '../../json/queries';
import type { JsonNode } from '../../json/nodes';
import type { Line, LinesModel } from '../lines';
import { ownEntry } from '../../common/lookup';
import { spanOf } from '../../common/spans';

/** Checks every line of an agentguard log against the TraceEntry shape and its call/result consistency. */
export function validateAgentguard(model: LinesModel, context: ServiceContext, report: (problem: Problem) => boolean): void {
  const firstCallIds = new Map<string, Line>();
  for (const line of model.contentLines) {
    // A broken line reports its syntax errors only (half-typed values would only add noise).
    if (!line.root || line.errors.length > 0) continue;
    if (line.kind !== 'agentguard') {
      if (line.errors.length === 0 && !report(notEntry(line))) return;
      continue;
    }
    const problems: Problem[] = [];
    checkShape(line.root, ENTRY_SPEC, 'entry', problems, context.settings.unknownKeyHints);
    checkConsistency(line, problems);
    const callId = entryFacts(line).callId;
    if (callId) {
      const first = firstCallIds.get(callId.value);
      if (first) {
        const firstId = entryFacts(first).callId!;
        problems.push({
          span: { start: callId.start, end: callId.end },
          severity: 'warning',
          code: 'ag/duplicate-call-id',
          message: `Call id ${callId.value} was already used on line ${first.number + 1}; every invocation gets its own id`,
          related: [{ span: { start: firstId.start, end: firstId.end }, message: 'First use of this call id' }],
        });
      } else firstCallIds.set(callId.value, line);
    }
    for (const problem of problems) if (!report(problem)) return;
  }
}

function notEntry(line: Line): Problem {
  const root = line.root!;
  const head = root.type === 'object' && root.properties[0] ? { start: root.properties[0].keyStart, end: root.properties[0].keyEnd } : { start: root.start, end: root.type === 'object' || root.type === 'array' ? root.start + 1 : root.end };
  return {
    span: head,
    severity: 'error',
    code: 'ag/not-entry',
    message: 'This line is not an agentguard trace entry: expected an object {"call": {...}, "result": {...}}',
  };
}

function checkShape(node: JsonNode, spec: FieldSpec, name: string, problems: Problem[], unknownKeyHints: boolean): void {
  if (node.type === 'null') {
    if (!spec.nullable && spec.type !== 'any' && spec.type !== 'number') problems.push(typeProblem(node, spec, name));
    return;
  }
  if (!matchesType(node, spec)) {
    problems.push(typeProblem(node, spec, name));
    return;
  }
  if (spec.type === 'datetime' && node.type === 'string' && !timestampKey(node.value)) {
    problems.push({
      span: spanOf(node),
      severity: 'error',
      code: 'ag/timestamp',
      message: `${name} is not an ISO-8601 date-time: '${node.value}' (expected e.g. 2026-01-31T12:00:00.000000Z)`,
    });
  }
  if (spec.values && node.type === 'string' && !spec.values.includes(node.value)) {
    const code = spec.values === STATUS_VALUES ? 'ag/status' : spec.values === VALIDATION_KINDS ? 'ag/validation-kind' : spec.values === USAGE_KINDS ? 'ag/usage-kind' : 'ag/value';
    problems.push({
      span: spanOf(node),
      severity: 'error',
      code,
      message: `Unknown ${name.split('.').pop()} '${node.value}': expected one of ${spec.values.join(', ')}`,
    });
  }
  if (node.type === 'number') checkNumberRange(node.raw, node, name, problems);
  if (node.type === 'object' && spec.fields) {
    const fields = spec.fields;
    for (const [key, fieldSpec] of Object.entries(fields)) {
      if (fieldSpec.required && !property(node, key)) {
        problems.push({
          span: { start: node.start, end: node.start + 1 },
          severity: 'error',
          code: 'ag/missing-field',
          message: `${name} is missing the required field '${key}' (${describeFieldType(fieldSpec)})`,
        });
      }
    }
    for (const prop of node.properties) {
      const fieldSpec = ownEntry(fields, prop.key);
      if (!fieldSpec) {
        if (unknownKeyHints) {
          problems.push({
            span: { start: prop.keyStart, end: prop.keyEnd },
            severity: 'hint',
            code: 'ag/unknown-field',
            message: `agentguard does not write '${prop.key}' in ${name}`,
          });
        }
        continue;
      }
      if (prop.value) checkShape(prop.value, fieldSpec, `${name === 'entry' ? '' : `${name}.`}${prop.key}`, problems, unknownKeyHints);
    }
  }
  if (node.type === 'array' && spec.items) node.items.forEach((item, i) => checkShape(item, spec.items!, `${name}[${i}]`, problems, unknownKeyHints));
}

function checkNumberRange(raw: string, node: JsonNode, name: string, problems: Problem[]): void {
  const value = Number(raw);
  if (name.endsWith('hallucination.confidence') && !(value >= 0 && value <= 1)) {
    problems.push({ span: spanOf(node), severity: 'error', code: 'ag/confidence-range', message: `confidence must be between 0 and 1, found ${raw}` });
  } else if (name === 'result.execution_time_ms' && value < 0) {
    problems.push({ span: spanOf(node), severity: 'error', code: 'ag/negative-time', message: `execution_time_ms cannot be negative, found ${raw}` });
  } else if (name === 'result.retry_count' && value < 0) {
    problems.push({ span: spanOf(node), severity: 'error', code: 'ag/negative-retries', message: `retry_count cannot be negative, found ${raw}` });
  }
}

function matchesType(node: JsonNode, spec: FieldSpec): boolean {
  switch (spec.type) {
    case 'any': return true;
    case 'string': case 'datetime': return node.type === 'string';
    case 'number': return node.type === 'number';
    case 'integer': return node.type === 'number' && /^-?\d+$/.test(node.raw);
    case 'boolean': return node.type === 'boolean';
    case 'array': return node.type === 'array';
    case 'object': return node.type === 'object';
  }
}

function typeProblem(node: JsonNode, spec: FieldSpec, name: string): Problem {
  const found = node.type === 'number' && spec.type === 'integer' ? `a non-integer number ${node.raw}` : describeNode(node);
  return { span: spanOf(node), severity: 'error', code: 'ag/type', message: `${name} must be ${article(describeFieldType(spec))}, found ${found}` };
}

function article(type: string): string {
  return /^[aeiouAEIOU]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describeNode(node: JsonNode): string {
  switch (node.type) {
    case 'object': return 'an object';
    case 'array': return 'a list';
    case 'string': return 'a string';
    case 'number': return `the number ${node.raw}`;
    case 'boolean': return `${node.value}`;
    default: return 'null';
  }
}

function checkConsistency(line: Line, problems: Problem[]): void {
  const facts = entryFacts(line);
  const call = facts.call;
  const result = facts.result;
  if (!call || !result || call.type !== 'object' || result.type !== 'object') return;
  if (facts.callId && facts.resultCallId && facts.callId.value !== facts.resultCallId.value) {
    problems.push({
      span: spanOf(facts.resultCallId),
      severity: 'error',
      code: 'ag/call-id-mismatch',
      message: `result.call_id ${facts.resultCallId.value} differs from call.call_id ${facts.callId.value}: the result belongs to another call`,
      related: [{ span: spanOf(facts.callId), message: 'The call\'s id' }],
    });
  }
  const callTool = property(call, 'tool_name')?.value;
  const resultTool = property(result, 'tool_name')?.value;
  if (callTool?.type === 'string' && resultTool?.type === 'string' && callTool.value !== resultTool.value) {
    problems.push({
      span: spanOf(resultTool),
      severity: 'error',
      code: 'ag/tool-name-mismatch',
      message: `result.tool_name '${resultTool.value}' differs from call.tool_name '${callTool.value}'`,
      related: [{ span: spanOf(callTool), message: 'The called tool' }],
    });
  }
  const callTime = property(call, 'timestamp')?.value;
  const resultTime = property(result, 'timestamp')?.value;
  if (callTime?.type === 'string' && resultTime?.type === 'string') {
    const started = timestampKey(callTime.value);
    const finished = timestampKey(resultTime.value);
    if (started && finished && compareTimestamps(finished, started) < 0) {
      problems.push({
        span: spanOf(resultTime),
        severity: 'error',
        code: 'ag/time-order',
        message: `The result is stamped ${resultTime.value}, before its call started (${callTime.value})`,
        related: [{ span: spanOf(callTime), message: 'When the call started' }],
      });
    }
  }
}
