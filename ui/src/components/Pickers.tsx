import { useSignal } from "@preact/signals";
import type { Tag, TicketSummary } from "../types";
import { TagDot } from "./bits";

let pickerCount = 0;

/** A combobox: type to filter, ↑/↓ to move, Enter to choose, Escape to clear (WAI-ARIA 1.2). */
function Combobox<T>(props: {
  label: string;
  placeholder: string;
  options: T[];
  keyOf: (option: T) => string | number;
  render: (option: T) => preact.ComponentChildren;
  onChoose: (option: T) => void;
  /** Offered at the end when the text matches nothing exactly (create on the fly). */
  extra?: (text: string) => { label: string; run: () => void } | null;
}) {
  const text = useSignal("");
  const open = useSignal(false);
  const active = useSignal(0);
  const id = useSignal(`picker-${++pickerCount}`).value;
  const extra = props.extra?.(text.value.trim()) ?? null;
  const count = props.options.length + (extra ? 1 : 0);
  const choose = (index: number) => {
    const option = props.options[index];
    if (option !== undefined) props.onChoose(option);
    else if (extra) extra.run();
    text.value = "";
    active.value = 0;
  };
  return (
    <div class="combobox">
      <input
        type="text"
        role="combobox"
        aria-label={props.label}
        aria-expanded={open.value && count > 0}
        aria-controls={`${id}-list`}
        aria-activedescendant={open.value && count > 0 ? `${id}-${active.value}` : undefined}
        aria-autocomplete="list"
        placeholder={props.placeholder}
        value={text.value}
        onFocus={() => (open.value = true)}
        onBlur={() => setTimeout(() => (open.value = false), 150)}
        onInput={(event) => {
          text.value = (event.target as HTMLInputElement).value;
          active.value = 0;
          open.value = true;
        }}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown") {
            event.preventDefault();
            active.value = Math.min(count - 1, active.value + 1);
          } else if (event.key === "ArrowUp") {
            event.preventDefault();
            active.value = Math.max(0, active.value - 1);
          } else if (event.key === "Enter") {
            event.preventDefault();
            if (count > 0) choose(active.value);
          } else if (event.key === "Escape" && text.value) {
            event.preventDefault();
            event.stopPropagation();
            text.value = "";
          }
        }}
      />
      {open.value && count > 0 && (
        <div class="combobox-list" role="listbox" id={`${id}-list`} aria-label={props.label}>
          {props.options.map((option, index) => (
            <div
              key={props.keyOf(option)}
              id={`${id}-${index}`}
              role="option"
              tabIndex={-1}
              aria-selected={index === active.value}
              class={index === active.value ? "is-active" : undefined}
              onMouseDown={(event) => {
                event.preventDefault();
                choose(index);
              }}
            >
              {props.render(option)}
            </div>
          ))}
          {extra && (
            <div
              id={`${id}-${props.options.length}`}
              role="option"
              tabIndex={-1}
              aria-selected={active.value === props.options.length}
              class={active.value === props.options.length ? "is-active" : undefined}
              onMouseDown={(event) => {
                event.preventDefault();
                choose(props.options.length);
              }}
            >
              {extra.label}
            </div>
          )}
        </div>
      )}
    </div>
  );
}

export function TagPicker(props: {
  boardTags: Tag[];
  chosen: number[];
  onToggle: (tag: Tag) => void;
  onCreate: (name: string) => void;
}) {
  const filter = useSignal("");
  void filter;
  return (
    <Combobox<Tag>
      label="Add or remove tags"
      placeholder="Add tag…"
      options={[...props.boardTags].sort((a, b) => a.name.localeCompare(b.name))}
      keyOf={(tag) => tag.id}
      render={(tag) => (
        <span class="tag-option">
          <TagDot color={tag.color} /> {tag.name}
          {props.chosen.includes(tag.id) ? <span class="muted"> ✓</span> : null}
        </span>
      )}
      onChoose={props.onToggle}
      extra={(text) =>
        text && !props.boardTags.some((tag) => tag.name.toLowerCase() === text.toLowerCase())
          ? { label: `Create tag “${text}”`, run: () => props.onCreate(text) }
          : null
      }
    />
  );
}

export function TicketPicker(props: {
  label: string;
  choices: TicketSummary[];
  onPick: (id: number) => void;
}) {
  return <FilteredTicketPicker {...props} />;
}

function FilteredTicketPicker(props: {
  label: string;
  choices: TicketSummary[];
  onPick: (id: number) => void;
}) {
  const query = useSignal("");
  const q = query.value.trim().toLowerCase().replace(/^#/, "");
  const options = props.choices
    .filter(
      (ticket) => !q || String(ticket.id).startsWith(q) || ticket.title.toLowerCase().includes(q),
    )
    .slice(0, 30);
  return (
    <div
      class="ticket-picker"
      onInput={(event) => {
        query.value = (event.target as HTMLInputElement).value;
      }}
    >
      <Combobox<TicketSummary>
        label={props.label}
        placeholder={`${props.label}…`}
        options={options}
        keyOf={(ticket) => ticket.id}
        render={(ticket) => (
          <span>
            <span class="card-ref">{ticket.shortRef}</span> {ticket.title}
          </span>
        )}
        onChoose={(ticket) => {
          query.value = "";
          props.onPick(ticket.id);
        }}
      />
    </div>
  );
}
