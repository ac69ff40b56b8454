import type { Problem, Span } from '../common/types';
import { LineIndex } from '../common/lineIndex';
import { closestNames } from '../common/editDistance';
import { fileNameOfUri } from '../common/uri';
import { parseJsonValue } from '../json/readJson';
import type { JsonNode, JsonObject, JsonProperty } from '../json/nodes';

/**
 * A rule file's tests: `X.tests.json` beside `X.gr`, read into cases with the source spans of every field, so the
 * editor can check it while it is typed and the runner can point at a failing case. The manifest's JSON Schema
 * (`schemas/rule-tests.schema.json`, contributed to VS Code) describes the same fields.
 *
 * ```json
 * { "rules": "X.gr", "params": { … },
 *   "cases": [ { "name": "…", "trace": "fixtures/t.trace.json", "line": 2, "params": { … },
 *                "expect": [ { "message": "… or /regex/flags", "at": 3, "rule": 12 } ], "allowOthers": false } ] }
 * ```
 */

export const manifestSuffix = '.tests.json';

export function isManifestPath(path: string): boolean {
  return path.toLowerCase().endsWith(manifestSuffix);
}

/** The rule file a manifest tests when it names none: `X.gr` beside `X.tests.json`. */
export function defaultRulesPath(manifestName: string): string {
  return manifestName.slice(0, manifestName.length - manifestSuffix.length) + '.gr';
}

/** The manifest of a rule file: `X.tests.json` beside `X.gr`. */
export function manifestPathOf(rulesPath: string): string {
  return rulesPath.replace(/\.gr$/i, '') + manifestSuffix;
}

export type MessagePattern = { kind: 'exact'; text: string } | { kind: 'regex'; source: string; regex: RegExp };

export interface Expectation {
  span: Span;
  message: MessagePattern;
  messageSpan: Span;
  /** 0-based event index the violation's first range lies in. */
  at?: number;
  /** 1-based line of the rule's `raise` in the rule file. */
  rule?: number;
  ruleSpan?: Span;
}

/** A trace file (relative to the manifest), or a trace written in the manifest itself. */
export type CaseTrace =
  | { kind: 'file'; path: string; span: Span }
  | { kind: 'inline'; span: Span };

export interface TestCase {
  index: number;
  name: string;
  /** The case's object in the manifest. */
  span: Span;
  nameSpan: Span;
  trace?: CaseTrace;
  /** 1-based line of a dataset: the trace the case runs on. */
  line?: number;
  /** The manifest's `params`, overridden by the case's own. */
  params: Record<string, unknown>;
  expect: Expectation[];
  allowOthers: boolean;
  /** The case is not run (true, or why). */
  skip?: string | true;
}

export interface ManifestModel {
  uri: string;
  version: number;
  text: string;
  lines: LineIndex;
  /** The rule file, relative to the manifest (as written, or the default). */
  rules: { path: string; span?: Span };
  cases: TestCase[];
  /** Syntax errors and fields of the wrong shape: a manifest with any error is not run. */
  problems: Problem[];
}

/** Cases read from one manifest, and expected violations from one case: past these, a problem says they were left out. */
export const maxCases = 10_000;
export const maxExpectations = 1_000;

const manifestKeys = ['$schema', 'rules', 'params', 'cases', 'description'];
const caseKeys = ['name', 'trace', 'line', 'params', 'expect', 'allowOthers', 'skip', 'description'];
const expectationKeys = ['message', 'at', 'rule'];

export function parseManifest(uri: string, version: number, text: string): ManifestModel {
  const parsed = parseJsonValue(text, 0, text.length);
  const problems: Problem[] = parsed.errors.map((e) => ({ span: { start: e.start, end: e.end }, severity: 'error', code: 'tests/syntax', message: e.message }));
  const name = fileNameOfUri(uri);
  const model: ManifestModel = {
    uri, version, text, lines: new LineIndex(text), rules: { path: defaultRulesPath(name) }, cases: [], problems,
  };
  const root = parsed.root;
  if (!root) return model;
  const problem = (span: Span, message: string, severity: Problem['severity'] = 'error', suggestion?: string) =>
    problems.push({ span, severity, code: 'tests/schema', message, ...(suggestion ? { suggestion } : {}) });
  if (root.type !== 'object') {
    problem(root, 'A tests manifest is an object: { "rules": "X.gr", "cases": [ … ] }');
    return model;
  }
  const plain = (node: JsonNode): unknown => {
    try {
      return JSON.parse(text.slice(node.start, node.end));
    } catch {
      return undefined;
    }
  };
  unknownKeys(root, manifestKeys, 'the manifest', problem);
  const rules = find(root, 'rules')?.value;
  if (rules) {
    if (rules.type === 'string' && rules.value.trim() !== '') model.rules = { path: rules.value, span: rules };
    else problem(rules, '"rules" is the rule file\'s path, relative to this manifest');
  }
  const shared = objectParams(find(root, 'params')?.value, plain, problem);
  const cases = find(root, 'cases');
  if (!cases) {
    problem({ start: root.start, end: root.start + 1 }, 'The manifest has no "cases": a list of { "name", "trace", "expect" }');
    return model;
  }
  if (!cases.value || cases.value.type !== 'array') {
    problem(cases.value ?? cases, '"cases" is a list of { "name", "trace", "expect" }');
    return model;
  }
  const names = new Map<string, number>();
  const items = cases.value.items;
  if (items.length > maxCases) problem(items[maxCases], `More than ${maxCases.toLocaleString('en-US')} cases: the ${(items.length - maxCases).toLocaleString('en-US')} from here on are not read (split the manifest)`);
  items.slice(0, maxCases).forEach((node, index) => {
    if (node.type !== 'object') {
      problem(node, 'A case is an object: { "name", "trace", "expect" }');
      return;
    }
    const testCase = readCase(node, index, shared, plain, problem);
    const seen = names.get(testCase.name);
    if (seen !== undefined) problem(testCase.nameSpan, `Another case (${seen + 1}) has this name: each case needs its own to be told apart`, 'warning');
    else names.set(testCase.name, index);
    model.cases.push(testCase);
  });
  return model;
}

type Report = (span: Span, message: string, severity?: Problem['severity'], suggestion?: string) => void;

function readCase(node: JsonObject, index: number, shared: Record<string, unknown>, plain: (node: JsonNode) => unknown, problem: Report): TestCase {
  unknownKeys(node, caseKeys, 'a case', problem);
  const nameNode = find(node, 'name');
  const testCase: TestCase = {
    index, name: `case ${index + 1}`, span: { start: node.start, end: node.end }, nameSpan: { start: node.start, end: node.start + 1 },
    params: { ...shared }, expect: [], allowOthers: false,
  };
  if (!nameNode?.value) problem({ start: node.start, end: node.start + 1 }, 'A case needs a "name"');
  else if (nameNode.value.type !== 'string' || nameNode.value.value.trim() === '') problem(nameNode.value, '"name" is a text naming the case');
  else {
    testCase.name = nameNode.value.value;
    testCase.nameSpan = { start: nameNode.value.start, end: nameNode.value.end };
  }
  const trace = find(node, 'trace')?.value;
  if (!trace) problem(testCase.nameSpan, 'A case needs a "trace": a trace file\'s path (relative to this manifest), or the trace itself (a list of events)');
  else if (trace.type === 'string' && trace.value.trim() !== '') testCase.trace = { kind: 'file', path: trace.value, span: { start: trace.start, end: trace.end } };
  else if (trace.type === 'array' || (trace.type === 'object' && find(trace, 'messages'))) testCase.trace = { kind: 'inline', span: { start: trace.start, end: trace.end } };
  else problem(trace, '"trace" is a trace file\'s path (relative to this manifest), or the trace itself: a list of events, or an object with "messages"');
  const line = find(node, 'line')?.value;
  if (line) {
    const value = line.type === 'number' ? Number(line.raw) : NaN;
    if (Number.isInteger(value) && value >= 1) testCase.line = value;
    else problem(line, '"line" is the 1-based line of a dataset (.jsonl) that holds the trace');
    if (testCase.trace?.kind === 'inline') problem(line, '"line" picks a line of a dataset file; an inline trace has none', 'warning');
  }
  Object.assign(testCase.params, objectParams(find(node, 'params')?.value, plain, problem));
  const expect = find(node, 'expect');
  if (!expect?.value) problem(testCase.nameSpan, 'A case needs "expect": the violations it must find ([] when none)');
  else if (expect.value.type !== 'array') problem(expect.value, '"expect" is a list of { "message", "at", "rule" } ([] when the trace must pass)');
  else {
    const entries = expect.value.items;
    if (entries.length > maxExpectations) problem(entries[maxExpectations], `More than ${maxExpectations.toLocaleString('en-US')} expected violations: the rest are not read (split the case)`);
    for (const entry of entries.slice(0, maxExpectations)) {
      const expectation = readExpectation(entry, problem);
      if (expectation) testCase.expect.push(expectation);
    }
  }
  const allowOthers = find(node, 'allowOthers')?.value;
  if (allowOthers) {
    if (allowOthers.type === 'boolean') testCase.allowOthers = allowOthers.value === true;
    else problem(allowOthers, '"allowOthers" is true or false: whether violations not listed in "expect" may occur');
  }
  const skip = find(node, 'skip')?.value;
  if (skip) {
    if (skip.type === 'boolean') testCase.skip = skip.value === true ? true : undefined;
    else if (skip.type === 'string') testCase.skip = skip.value;
    else problem(skip, '"skip" is true, or a text saying why the case is not run');
  }
  return testCase;
}

function readExpectation(node: JsonNode, problem: Report): Expectation | undefined {
  if (node.type !== 'object') {
    problem(node, 'An expected violation is an object: { "message": "…", "at": 3, "rule": 12 }');
    return undefined;
  }
  unknownKeys(node, expectationKeys, 'an expected violation', problem);
  const message = find(node, 'message')?.value;
  if (!message || message.type !== 'string') {
    problem(message ?? { start: node.start, end: node.start + 1 }, 'An expected violation needs a "message": the exact text, or /a regex/');
    return undefined;
  }
  const pattern = messagePattern(message.value);
  if (typeof pattern === 'string') {
    problem(message, pattern);
    return undefined;
  }
  const expectation: Expectation = { span: { start: node.start, end: node.end }, message: pattern, messageSpan: { start: message.start, end: message.end } };
  const at = find(node, 'at')?.value;
  if (at) {
    const value = at.type === 'number' ? Number(at.raw) : NaN;
    if (Number.isInteger(value) && value >= 0) expectation.at = value;
    else problem(at, '"at" is the 0-based index of the event the violation\'s first range lies in');
  }
  const rule = find(node, 'rule')?.value;
  if (rule) {
    const value = rule.type === 'number' ? Number(rule.raw) : NaN;
    if (Number.isInteger(value) && value >= 1) {
      expectation.rule = value;
      expectation.ruleSpan = { start: rule.start, end: rule.end };
    } else problem(rule, '"rule" is the 1-based line of the rule\'s raise in the rule file');
  }
  return expectation;
}

/** `/…/flags` is a regular expression (JavaScript's, searched in the message); anything else the exact message. */
export function messagePattern(text: string): MessagePattern | string {
  const regex = /^\/(.+)\/([a-z]*)$/s.exec(text);
  if (!regex) return { kind: 'exact', text };
  if (/[^ims]/.test(regex[2])) return `Unknown regular expression flag in ${JSON.stringify(regex[2])}: use i, m or s`;
  try {
    return { kind: 'regex', source: text, regex: new RegExp(regex[1], regex[2] + 'u') };
  } catch (error) {
    return `Not a valid regular expression: ${(error as Error).message}`;
  }
}

export function matchesMessage(pattern: MessagePattern, message: string): boolean {
  return pattern.kind === 'exact' ? pattern.text === message : pattern.regex.test(message);
}

export function describePattern(pattern: MessagePattern): string {
  return pattern.kind === 'exact' ? JSON.stringify(pattern.text) : pattern.source;
}

function objectParams(node: JsonNode | undefined, plain: (node: JsonNode) => unknown, problem: Report): Record<string, unknown> {
  if (!node) return {};
  const value = node.type === 'object' ? plain(node) : undefined;
  if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) {
    problem(node, '"params" is an object of policy parameters (input.name), as --param name=value');
    return {};
  }
  return value as Record<string, unknown>;
}

function find(node: JsonObject, key: string): JsonProperty | undefined {
  return node.properties.find((p) => p.key === key);
}

function unknownKeys(node: JsonObject, known: string[], where: string, problem: Report): void {
  for (const p of node.properties) {
    if (known.includes(p.key)) continue;
    const [closest] = closestNames(p.key, known.filter((k) => !k.startsWith('$')));
    const span = { start: p.keyStart, end: p.keyEnd };
    if (closest) problem(span, `Unknown field "${p.key}" in ${where}. Did you mean "${closest}"?`, 'warning', JSON.stringify(closest));
    else problem(span, `Unknown field "${p.key}" in ${where}; known: ${known.map((k) => `"${k}"`).join(', ')}`, 'warning');
  }
}
