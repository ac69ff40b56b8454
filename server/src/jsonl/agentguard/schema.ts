import { lookup, ownEntry } from '../../common/lookup';

/**
 * The shape of one agentguard TraceEntry line (agentguard's `TraceEntry` model as its file backend writes it),
 * with our own explanation of every field for hover.
 */
export type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'any' | 'datetime';

export interface FieldSpec {
  type: FieldType;
  /** null is allowed (agentguard also writes NaN and Infinity as null, so numbers always accept it). */
  nullable?: boolean;
  required?: boolean;
  doc: string;
  values?: readonly string[];
  fields?: Record<string, FieldSpec>;
  /** For lists of objects. */
  items?: FieldSpec;
}

export const STATUS_VALUES = [
  'success', 'failure', 'timeout', 'circuit_open', 'budget_exceeded', 'rate_limited', 'validation_failed', 'hallucinated', 'retried',
] as const;

export const STATUS_DOCS: Record<string, string> = lookup({
  success: 'The tool ran and its result passed every check.',
  failure: 'The tool raised an exception.',
  timeout: 'The tool did not finish within its time limit and was abandoned.',
  circuit_open: 'The call was refused without running: too many recent failures opened the circuit breaker for this tool.',
  budget_exceeded: 'The call was refused because it would exceed the cost or call budget of the session.',
  rate_limited: 'The call was refused because the tool was called more often than its rate limit allows.',
  validation_failed: 'A validator rejected the arguments before the call, or the response after it.',
  hallucinated: 'The response looks fabricated (e.g. returned impossibly fast or missing expected fields).',
  retried: 'The call failed at first and succeeded on a retry.',
});

export const VALIDATION_KINDS = ['schema', 'hallucination', 'response_verification', 'semantic', 'custom'] as const;

export const VALIDATION_KIND_DOCS: Record<string, string> = lookup({
  schema: 'Checks arguments or response against the declared types.',
  hallucination: 'Checks whether the response looks invented rather than produced by real work.',
  response_verification: 'Checks the response against an expected contract (required fields, patterns).',
  semantic: 'Checks the meaning of arguments or response (e.g. a business rule).',
  custom: 'A check written by the application.',
});

export const USAGE_KINDS = ['text', 'audio', 'image', 'multimodal'] as const;

/** Statuses agentguard's own tooling does not count as failures. */
export function isFailedStatus(status: string | undefined): boolean {
  return status !== undefined && status !== 'success' && status !== 'retried';
}

const nullableNumber = (doc: string): FieldSpec => ({ type: 'number', nullable: true, doc });
const nullableInteger = (doc: string): FieldSpec => ({ type: 'integer', nullable: true, doc });
const nullableString = (doc: string): FieldSpec => ({ type: 'string', nullable: true, doc });

const VALIDATION: FieldSpec = {
  type: 'object',
  doc: 'The outcome of one validator that looked at this call.',
  fields: {
    valid: { type: 'boolean', required: true, doc: '`true` when the check passed.' },
    kind: { type: 'string', required: true, values: VALIDATION_KINDS, doc: 'What sort of check this was.' },
    message: { type: 'string', doc: 'What the check found, in words; empty when it passed.' },
    details: { type: 'object', doc: 'Structured facts behind the verdict (e.g. the expected and actual type).' },
  },
};

const HALLUCINATION: FieldSpec = {
  type: 'object',
  nullable: true,
  doc: 'The anomaly check of the tool response, or null when none ran. Despite the name it judges the tool\'s response (too fast, missing fields, odd values), not the model.',
  fields: {
    is_hallucinated: { type: 'boolean', required: true, doc: '`true` when the response was judged fabricated.' },
    confidence: { type: 'number', required: true, doc: 'How sure the check is, from 0 (surely genuine) to 1 (surely fabricated).' },
    reason: { type: 'string', doc: 'Why the check decided as it did.' },
    signals: { type: 'object', doc: 'The raw measurements the score was computed from.' },
  },
};

const USAGE: FieldSpec = {
  type: 'object',
  nullable: true,
  doc: 'Token usage reported by the model provider, for LLM calls; null for ordinary tools.',
  fields: {
    kind: { type: 'string', values: USAGE_KINDS, doc: 'Main modality of the model call.' },
    input_tokens: nullableInteger('Tokens sent to the model.'),
    output_tokens: nullableInteger('Tokens the model generated.'),
    total_tokens: nullableInteger('Input plus output tokens, as the provider counts them.'),
    cached_input_tokens: nullableInteger('Input tokens served from the provider\'s prompt cache (usually cheaper).'),
    cache_creation_tokens: nullableInteger('Input tokens written into the prompt cache.'),
    reasoning_tokens: nullableInteger('Hidden reasoning tokens billed as output.'),
    audio_input_tokens: nullableInteger('Audio tokens sent to the model.'),
    audio_output_tokens: nullableInteger('Audio tokens generated.'),
    image_input_units: nullableInteger('Images (or image tiles) sent to the model.'),
    raw_usage: { type: 'object', nullable: true, doc: 'The usage object exactly as the provider returned it.' },
  },
};

const COST_BREAKDOWN: FieldSpec = {
  type: 'object',
  nullable: true,
  doc: 'How the cost of an LLM call was priced, part by part; null for ordinary tools.',
  fields: {
    total_cost_usd: nullableNumber('Total price of the call in US dollars.'),
    input_cost_usd: nullableNumber('Price of the input tokens.'),
    cached_input_cost_usd: nullableNumber('Price of the cached input tokens.'),
    output_cost_usd: nullableNumber('Price of the output tokens.'),
    reasoning_cost_usd: nullableNumber('Price of the reasoning tokens.'),
    audio_cost_usd: nullableNumber('Price of the audio tokens.'),
    image_cost_usd: nullableNumber('Price of the image inputs.'),
    pricing_source: nullableString('Where the prices came from (built-in table, override, provider).'),
    priced_model: nullableString('The model name the price table was looked up with.'),
    pricing_as_of: { type: 'datetime', nullable: true, doc: 'Date of the price table used.' },
    estimated: { type: 'boolean', doc: '`true` when the price is an estimate rather than the provider\'s figure.' },
    cost_known: { type: 'boolean', doc: '`false` when no price was found for the model.' },
  },
};

export const ENTRY_SPEC: FieldSpec = {
  type: 'object',
  doc: 'One guarded tool call: what was asked (`call`) and what happened (`result`).',
  fields: {
    call: {
      type: 'object',
      required: true,
      doc: 'The invocation, recorded before the tool ran.',
      fields: {
        call_id: { type: 'string', required: true, doc: 'Unique id of this invocation (a UUID). The result repeats it.' },
        tool_name: { type: 'string', required: true, doc: 'The tool (function) that was called. Names starting with `llm.` record model spend.' },
        args: { type: 'array', doc: 'Positional arguments, in order.' },
        kwargs: { type: 'object', doc: 'Keyword arguments by name.' },
        timestamp: { type: 'datetime', doc: 'When the call started (ISO-8601, UTC).' },
        session_id: nullableString('Groups the calls of one agent session; often null, the file name then names the session.'),
        metadata: { type: 'object', doc: 'Free-form data the application attached to the call.' },
      },
    },
    result: {
      type: 'object',
      required: true,
      doc: 'The outcome, recorded when the call finished or was refused.',
      fields: {
        call_id: { type: 'string', required: true, doc: 'The id of the call this result belongs to; equals `call.call_id`.' },
        tool_name: { type: 'string', required: true, doc: 'The tool that was called; equals `call.tool_name`.' },
        status: { type: 'string', required: true, values: STATUS_VALUES, doc: 'How the call ended. Anything but `success` and `retried` counts as a failure.' },
        return_value: { type: 'any', doc: 'What the tool returned; null when it failed or was refused.' },
        exception: nullableString('The error message when the call failed.'),
        exception_type: nullableString('The class name of the error (e.g. `ToolTimeoutError`).'),
        execution_time_ms: { type: 'number', doc: 'How long the tool ran, in milliseconds (0 when it never ran).' },
        retry_count: { type: 'integer', doc: 'How many times the call was retried before this outcome.' },
        validations: { type: 'array', items: VALIDATION, doc: 'Every validator verdict for this call, in order.' },
        hallucination: HALLUCINATION,
        cost: nullableNumber('What the call cost in US dollars, when known.'),
        provider: nullableString('Model provider of an LLM call (e.g. `openai`).'),
        model: nullableString('Model of an LLM call (e.g. `gpt-4o-mini`).'),
        usage: USAGE,
        cost_breakdown: COST_BREAKDOWN,
        cost_estimated: { type: 'boolean', doc: '`true` when `cost` is an estimate.' },
        cost_known: { type: 'boolean', doc: '`true` when `cost` could be determined at all.' },
        timestamp: { type: 'datetime', doc: 'When the call finished (ISO-8601, UTC); never before the call\'s timestamp.' },
      },
    },
  },
};

/** The spec of the field at a path such as ['result', 'validations', 0, 'kind'] (indexes step into `items`). */
export function specAt(path: (string | number)[]): FieldSpec | undefined {
  let spec: FieldSpec | undefined = ENTRY_SPEC;
  for (const segment of path) {
    if (!spec) return undefined;
    spec = typeof segment === 'number' ? spec.items : ownEntry(spec.fields, segment);
  }
  return spec;
}

export function describeFieldType(spec: FieldSpec): string {
  const base = spec.type === 'datetime' ? 'ISO-8601 date-time string' : spec.type === 'any' ? 'any JSON value' : spec.type;
  return spec.nullable ? `${base} or null` : base;
}

/** ISO-8601 date-time as agentguard writes it; returns a sortable key or undefined when malformed. */
export function timestampKey(value: string): { ms: number; fraction: string } | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|z|[+-]\d{2}:?\d{2})?$/.exec(value);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, fraction = '', zone = 'Z'] = match;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const check = new Date(ms);
  if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  let offsetMs = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    offsetMs = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4))) * 60_000;
  }
  return { ms: ms - offsetMs, fraction: fraction.padEnd(12, '0') };
}

export function compareTimestamps(a: { ms: number; fraction: string }, b: { ms: number; fraction: string }): number {
  if (a.ms !== b.ms) return a.ms < b.ms ? -1 : 1;
  return a.fraction < b.fraction ? -1 : a.fraction > b.fraction ? 1 : 0;
}
