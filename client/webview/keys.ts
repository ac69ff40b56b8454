/** What a view does for the keys the preview and the compare view share. */
export interface ViewKeyActions {
  /** F8 / Shift+F8: the next or previous problem (preview) or change (compare view). */
  next(direction: 1 | -1): void;
  focusSearch(): void;
  /** Arrow down / up: the current row moves. */
  move(direction: 1 | -1): void;
  /** Enter: the current row's place in the editor. */
  reveal(): void;
  /** Space: unfolds or folds the current row, where the view has folds; true when it did. */
  toggle?(): boolean;
}

/** Both views' keyboard: search keys work while typing in the toolbar, the row keys only outside its fields. */
export function handleViewKey(event: KeyboardEvent, actions: ViewKeyActions): void {
  const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement;
  if (event.key === 'F8') {
    event.preventDefault();
    actions.next(event.shiftKey ? -1 : 1);
  } else if ((event.key === 'f' && (event.ctrlKey || event.metaKey)) || (event.key === '/' && !typing)) {
    event.preventDefault();
    actions.focusSearch();
  } else if (typing) {
    return;
  } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
    event.preventDefault();
    actions.move(event.key === 'ArrowDown' ? 1 : -1);
  } else if (event.key === 'Enter') {
    actions.reveal();
  } else if (event.key === ' ' && actions.toggle?.()) {
    event.preventDefault();
  }
}
