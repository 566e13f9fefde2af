import { useEffect, useRef } from 'react';

/** A control of the file list: one of a row's (`data-control`), or the list's Add file button. */
export type FocusTarget =
  { fileId: string; controls: Array<'up' | 'down' | 'replace'> } | { control: 'add' | 'heading' };

const selectorsOf = (target: FocusTarget) =>
  'fileId' in target
    ? target.controls.map(
        (control) => `[data-file-id="${CSS.escape(target.fileId)}"] [data-control="${control}"]`,
      )
    : [`[data-control="${target.control}"]`];

/**
 * Keeps keyboard focus where the seller is working. Reordering moves DOM nodes, a control that
 * ends up disabled (Move up on the new first row) drops focus to the page, and a closed uploader
 * takes its focus with it; after such a change the first enabled candidate takes focus.
 */
export function useListFocus() {
  const sectionRef = useRef<HTMLElement>(null);
  const pending = useRef<FocusTarget | null>(null);

  useEffect(() => {
    const target = pending.current;
    if (!target) return;
    pending.current = null;
    const control = selectorsOf(target)
      .map((selector) => sectionRef.current?.querySelector<HTMLElement>(selector))
      .find((element) => element && !(element as HTMLButtonElement).disabled);
    control?.focus();
  });

  return {
    sectionRef,
    /** Focus `target` once the change being made has rendered. */
    request: (target: FocusTarget) => {
      pending.current = target;
    },
  };
}
