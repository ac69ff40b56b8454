// How the editor (hover, outline, inlay hints) and the preview print durations, costs and tokens: one format for both.

/** `32.5 ms` below a second, `4.20 s` / `30.0 s` below a minute, `2 min 5 s` above; `no duration` when unknown. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return 'no duration';
  if (ms < 1000) return `${ms.toFixed(1)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** US dollars to four decimals (API spend is often fractions of a cent): `$0.0123`, `$0.5000`, `$0.0012`. */
export function formatCost(cost: number): string {
  return `$${cost < 0.01 && cost > 0 ? cost.toPrecision(2) : cost.toFixed(4)}`;
}

/** Tokens of one model request, or of a whole conversation, as far as its format records them. */
export interface TokenUsage {
  input?: number;
  /** Of the input, read from the provider's cache. */
  cachedInput?: number;
  output?: number;
  /** Of the output, spent on reasoning. */
  reasoning?: number;
  /** Input and output together (computed from the two when the format records no total). */
  total?: number;
}

const tokenCount = new Intl.NumberFormat('en-US');

/**
 * `2,400 tokens (1,500 in, 800 out)`; with `details`, the cached input and the reasoning too. The total is the one
 * recorded, else input and output added; undefined when nothing is known.
 */
export function formatTokens(usage: TokenUsage, details = false): string | undefined {
  const total = usage.total ?? (usage.input !== undefined || usage.output !== undefined ? (usage.input ?? 0) + (usage.output ?? 0) : undefined);
  if (total === undefined) return undefined;
  const parts: string[] = [];
  if (usage.input !== undefined) parts.push(`${tokenCount.format(usage.input)} in${details && usage.cachedInput ? ` (${tokenCount.format(usage.cachedInput)} cached)` : ''}`);
  if (usage.output !== undefined) parts.push(`${tokenCount.format(usage.output)} out${details && usage.reasoning ? ` (${tokenCount.format(usage.reasoning)} reasoning)` : ''}`);
  return `${tokenCount.format(total)} token${total === 1 ? '' : 's'}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}
