import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";

export interface MenuItem {
  label: string;
  run: () => unknown;
  disabled?: boolean;
  danger?: boolean;
}

/** A small "⋯" menu button: arrow keys move, Enter runs, Escape closes (WAI-ARIA menu button). */
export function Menu(props: { label: string; items: MenuItem[]; icon?: string }) {
  const open = useSignal(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open.value) return;
    const first = root.current?.querySelector<HTMLElement>("[role=menuitem]:not([disabled])");
    first?.focus();
    const close = (event: Event) => {
      if (!root.current?.contains(event.target as Node)) open.value = false;
    };
    document.addEventListener("pointerdown", close);
    return () => document.removeEventListener("pointerdown", close);
  }, [open.value]);

  const onKeyDown = (event: KeyboardEvent) => {
    const items = [
      ...(root.current?.querySelectorAll<HTMLElement>("[role=menuitem]:not([disabled])") ?? []),
    ];
    const at = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const next = items[(at + (event.key === "ArrowDown" ? 1 : -1) + items.length) % items.length];
      next?.focus();
    } else if (event.key === "Escape" || event.key === "Tab") {
      event.stopPropagation();
      if (event.key === "Escape") event.preventDefault();
      open.value = false;
      button.current?.focus();
    }
  };

  return (
    <div class="menu" ref={root} onKeyDown={onKeyDown}>
      <button
        ref={button}
        type="button"
        class="icon-button"
        aria-haspopup="menu"
        aria-expanded={open.value}
        aria-label={props.label}
        title={props.label}
        onClick={() => (open.value = !open.value)}
      >
        {props.icon ?? "⋯"}
      </button>
      {open.value && (
        <div class="menu-list" role="menu" aria-label={props.label}>
          {props.items.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              class={item.danger ? "danger" : undefined}
              disabled={item.disabled}
              onClick={() => {
                open.value = false;
                button.current?.focus();
                void item.run();
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
