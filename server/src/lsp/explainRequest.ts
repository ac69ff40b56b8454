import type { TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { fileNameOfUri } from '../common/uri';
import type { RuleFile } from '../rulesOnTraces/evaluateOnTrace';
import type { TraceSource } from '../rulesOnTraces/explainOnTrace';
import { traceLayout } from '../traceFormats';
import type { ServerSettings } from '../settings';
import type { DocumentModels } from './documentModels';
import type { RuleChecks } from './ruleChecks';
import { toRange } from './toProtocol';
import type {
  ExplainChoices, ExplainChoicesParams, ExplainRuleParams, ExplainRuleResult, ExplainTargets, ExplainTargetsParams,
} from '../../../shared/requests';

import { loadRuleAuthoring } from './ruleAuthoringBundle';

/** The explanation runs the rule evaluator, from its own bundle: loaded on the first question. */
const explainOnTrace = loadRuleAuthoring;

export interface ExplainHost {
  documents: TextDocuments<TextDocument>;
  models: DocumentModels;
  rules: RuleChecks;
  settings(): ServerSettings;
}

/** Elements a rule's code action lists per trace, at most: a trace of 100,000 calls would not be read in a list. */
const maxTargetsPerTrace = 2000;

/**
 * "Why not here?" in the editor (rulesOnTraces/explainOnTrace.ts): from a trace, the element at the cursor and the
 * rules to ask about; from a rule, the open traces' elements it could be asked about; and the explanation itself, as
 * Markdown whose links open the rule's lines and the trace's elements at their characters.
 */
export class Explanations {
  constructor(private readonly host: ExplainHost) {}

  private traceDocument(uri: string): { document: TextDocument; source: TraceSource } | string {
    const document = this.host.documents.get(uri);
    if (!document) return 'the trace is not open';
    const text = document.getText();
    const layout = traceLayout(this.host.models.languageOf(document), text);
    if (!layout) return 'rules are evaluated on traces, datasets and the conversations of the formats read here, not on this document';
    return { document, source: { text, layout, path: uri } };
  }

  choices(params: ExplainChoicesParams): ExplainChoices {
    const trace = this.traceDocument(params.uri);
    if (typeof trace === 'string') return { rules: [], problem: trace };
    const { document, source } = trace;
    const { element, problem } = explainOnTrace().elementAt(source, document.offsetAt(params.position));
    const rules = this.host.rules.rulesToAsk(params.uri);
    if (!element) return { rules: [], problem };
    return {
      element: { address: element.address, label: element.label, range: toRange(document, element.span) },
      rules: explainOnTrace().ruleOffers(rules, element.typeName),
    };
  }

  /** The explanation runs on the rule evaluation workers, where a rule past its time limit is ended. */
  async explain(params: ExplainRuleParams, isCancelled: () => boolean): Promise<ExplainRuleResult> {
    const trace = this.traceDocument(params.uri);
    if (typeof trace === 'string') return { problem: trace };
    const { document, source } = trace;
    const rule = this.ruleFile(params.ruleUri, params.uri);
    if (!rule) return { problem: `${params.ruleUri} is not an open rule file, nor one that applies to the trace` };
    const answer = await this.host.rules.explainOnWorker(
      { uri: rule.uri, text: rule.model.text }, { uri: document.uri, text: source.text, layout: source.layout }, document.offsetAt(params.position), params.ruleIndex, isCancelled,
    );
    if (!answer) return { problem: 'the explanation was cancelled' };
    if ('problem' in answer) return { problem: answer.problem };
    return { range: toRange(document, answer.span), wouldFire: answer.wouldFire, markdown: answer.markdown };
  }

  targets(params: ExplainTargetsParams): ExplainTargets {
    const rule = this.ruleFile(params.ruleUri);
    if (!rule) return { traces: [], reason: 'the rule file is not open' };
    const types = explainOnTrace().variableTypes(rule, params.ruleIndex);
    if (typeof types === 'string') return { traces: [], reason: types };
    if (types.size === 0) return { traces: [], reason: 'the rule has no variable a trace element can be bound to' };
    const traces: ExplainTargets['traces'] = [];
    for (const document of this.host.documents.all()) {
      const trace = this.traceDocument(document.uri);
      if (typeof trace === 'string') continue;
      const { text } = trace.source;
      const elements: ExplainTargets['traces'][number]['elements'] = [];
      for (const found of explainOnTrace().tracesOf(trace.source)) {
        const all = explainOnTrace().elementsOf(text, found);
        if (typeof all === 'string') continue;
        for (const element of all) {
          if (!types.has(element.typeName)) continue;
          const label = found.line !== undefined ? `line ${found.line}: ${element.label}` : element.label;
          elements.push({ address: element.address, label, range: toRange(document, element.span) });
          if (elements.length >= maxTargetsPerTrace) break;
        }
        if (elements.length >= maxTargetsPerTrace) break;
      }
      if (elements.length > 0) traces.push({ uri: document.uri, label: fileNameOfUri(document.uri), elements });
    }
    const typesNamed = [...types].join(' or ');
    return traces.length > 0 ? { traces } : { traces, reason: `no open trace has a ${typesNamed} for the rule to be asked about: open a trace first` };
  }

  private ruleFile(ruleUri: string, traceUri?: string): RuleFile | undefined {
    const asked = traceUri ? this.host.rules.rulesToAsk(traceUri) : [];
    const found = asked.find((rule) => rule.uri === ruleUri);
    if (found) return found;
    const document = this.host.documents.get(ruleUri);
    const parsed = document ? this.host.models.get(document) : undefined;
    return parsed?.languageId === 'guardrail' ? { uri: ruleUri, model: parsed.model as RuleFile['model'] } : undefined;
  }
}
