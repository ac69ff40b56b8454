/**
 * The controls both views' toolbars are made of (the preview's and the compare view's): the search box, toggles,
 * the previous/next pair, a dataset's trace picker, the three banners and the counter of what F8 visits. All text is
 * set through textContent.
 */
import type { TraceChoice } from '../../shared/protocol';
import { el, formatCount } from './dom';

export function option(value: string, label: string): HTMLOptionElement {
  const element = el('option', undefined, label);
  element.value = value;
  return element;
}

/** A search box that reports its text a moment after typing stops, at once on Enter, and empty on Escape. */
export function searchBox(label: string, onQuery: (query: string) => void): HTMLInputElement {
  const input = el('input', 'search');
  input.type = 'search';
  input.placeholder = label;
  input.setAttribute('aria-label', label);
  input.spellcheck = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => onQuery(input.value), 120);
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      clearTimeout(timer);
      onQuery(input.value);
    } else if (event.key === 'Escape' && input.value) {
      event.stopPropagation();
      input.value = '';
      clearTimeout(timer);
      onQuery('');
    }
  });
  return input;
}

/** A button that stays pressed until clicked again. */
export function toggleButton(className: string, label: string, title: string, onToggle: (pressed: boolean) => void): HTMLButtonElement {
  const button = el('button', className, label);
  button.type = 'button';
  button.title = title;
  button.setAttribute('aria-pressed', 'false');
  button.addEventListener('click', () => {
    const pressed = button.getAttribute('aria-pressed') !== 'true';
    button.setAttribute('aria-pressed', String(pressed));
    onToggle(pressed);
  });
  return button;
}

/** The counter of what F8 visits (problems, changes) and its previous and next buttons. */
export class StepperNav {
  readonly element = el('div', 'problem-nav');
  private readonly counter: HTMLSpanElement;
  private readonly previous: HTMLButtonElement;
  private readonly next: HTMLButtonElement;

  /** `classes`: of the counter and of the two buttons; `noun`: what is visited, `problem` or `change`. */
  constructor(classes: { counter: string; previous: string; next: string }, private readonly noun: string, onStep: (direction: 1 | -1) => void) {
    this.counter = el('span', classes.counter);
    this.previous = el('button', classes.previous, '↑');
    this.next = el('button', classes.next, '↓');
    for (const [button, direction, title] of [[this.previous, -1, `Previous ${noun} (Shift+F8)`], [this.next, 1, `Next ${noun} (F8)`]] as const) {
      button.type = 'button';
      button.title = title;
      button.setAttribute('aria-label', title);
      button.addEventListener('click', () => onStep(direction));
    }
    this.element.append(this.counter, this.previous, this.next);
  }

  /** `position`: 1-based, or 0 when none is selected. */
  set(position: number, total: number): void {
    const many = `${this.noun}s`;
    this.counter.textContent = total === 0
      ? `No ${many}`
      : position > 0
        ? `${this.noun[0].toUpperCase()}${this.noun.slice(1)} ${formatCount(position)} of ${formatCount(total)}`
        : `${formatCount(total)} ${total === 1 ? this.noun : many}`;
    this.counter.classList.toggle('has-problems', total > 0);
    this.previous.disabled = total === 0;
    this.next.disabled = total === 0;
  }
}

/**
 * Fills a dataset's trace picker; hidden for one trace. Appended one by one: a spread of a long list overflows the
 * stack. The server lists a window of a large dataset's traces; a disabled option stands for each gap.
 */
export function fillTracePicker(picker: HTMLSelectElement, traces: readonly TraceChoice[], chosen: number): void {
  picker.hidden = traces.length <= 1;
  picker.replaceChildren();
  if (picker.hidden) return;
  let previous = -1;
  for (const trace of traces) {
    const gap = trace.index - previous - 1;
    if (previous >= 0 && gap > 0) {
      const skipped = option('', `⋯ ${formatCount(gap)} more ${gap === 1 ? 'trace' : 'traces'} ⋯`);
      skipped.disabled = true;
      picker.append(skipped);
    }
    picker.append(option(String(trace.index), trace.label));
    previous = trace.index;
  }
  picker.value = String(chosen);
}

/** The banners under a toolbar: an error, a limit reached (`truncated`), and a notice the user can dismiss. */
export class Banners {
  readonly element = el('div', 'banners');
  private readonly notice = el('div', 'banner notice');
  private readonly truncated = el('div', 'banner truncated');
  /** What the view leaves out by design (records that repeat others), said by the server. */
  private readonly omitted = el('div', 'banner omitted');
  private readonly error = el('div', 'banner error');

  constructor() {
    const close = el('button', 'close', '✕');
    close.type = 'button';
    close.title = 'Dismiss';
    close.addEventListener('click', () => (this.notice.hidden = true));
    this.notice.append(el('span', 'text'), close);
    for (const banner of [this.notice, this.truncated, this.omitted, this.error]) {
      banner.hidden = true;
      banner.setAttribute('role', 'status');
    }
    this.error.setAttribute('role', 'alert');
    this.element.append(this.error, this.truncated, this.omitted, this.notice);
  }

  showNotice(text: string): void {
    this.notice.querySelector('.text')!.textContent = text;
    this.notice.hidden = false;
  }

  /** Shows the text in the banner, or hides it for none. */
  setTruncated(text: string | undefined): void {
    show(this.truncated, text);
  }

  setOmitted(text: string | undefined): void {
    show(this.omitted, text);
  }

  setError(text: string | undefined): void {
    show(this.error, text);
  }
}

function show(banner: HTMLElement, text: string | undefined): void {
  banner.textContent = text ?? '';
  banner.hidden = text === undefined || text === '';
}
