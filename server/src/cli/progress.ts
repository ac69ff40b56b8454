import { formatMB } from '../disk/files';

/**
 * The progress line of a long run, on standard error when it is a terminal (never in a pipe or a log): bytes read
 * of the total when known, traces done and what was found so far, redrawn at most every `everyMs`, erased at the end.
 */
export class ProgressLine {
  private shownAt = 0;
  private shown = false;
  private readonly enabled: boolean;

  constructor(private readonly command: string, private readonly stream: NodeJS.WriteStream = process.stderr, private readonly everyMs = 250) {
    this.enabled = stream.isTTY === true;
  }

  /** `done` counts what is finished (`doneWord`: traces, or files for a command that reports file by file). */
  update(state: { bytes: number; totalBytes?: number; done: number; doneWord: string; found: number; foundWord: string }): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.shownAt < this.everyMs) return;
    this.shownAt = now;
    const total = state.totalBytes ? ` of ${formatMB(state.totalBytes)}` : '';
    this.stream.write(`\r\u001b[K${this.command}: ${formatMB(state.bytes)}${total} read, ${state.done} ${state.doneWord}, ${state.found} ${state.foundWord}`);
    this.shown = true;
  }

  end(): void {
    if (this.shown) this.stream.write('\r\u001b[K');
    this.shown = false;
  }
}
