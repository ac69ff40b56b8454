// How the editor (hover, outline) and the preview print an agentguard entry's figures: one format for both.

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
