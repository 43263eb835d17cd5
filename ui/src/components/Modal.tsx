import type { ComponentChildren } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";

/**
 * A native modal `<dialog>`: the browser traps focus, makes the page behind inert, and Escape
 * raises `cancel` (which `onClose` may refuse, e.g. to ask about unsaved text). Focus returns to
 * where it was when the dialog closes.
 */
export function Modal(props: {
  label: string;
  class?: string;
  onClose: () => void;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useLayoutEffect(() => {
    const dialog = ref.current;
    const previous = document.activeElement as HTMLElement | null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      if (previous?.isConnected) previous.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      class={`modal ${props.class ?? ""}`}
      aria-label={props.label}
      onCancel={(event) => {
        event.preventDefault();
        props.onClose();
      }}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself) closes.
        if (event.target === ref.current) props.onClose();
      }}
    >
      {props.children}
    </dialog>
  );
}
