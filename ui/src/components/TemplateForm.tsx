import { useSignal } from "@preact/signals";
import { errorMessage } from "../api";
import { lanes } from "../board-data";
import { PRIORITIES } from "../priorities";
import { emptyTicket, saveTemplate, type TemplateDraft, variablesOf } from "../templates";
import type { Template, TemplateTicket } from "../types";

const list = (text: string) =>
  text
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);

/** Creates or edits a template: its name, description and tickets (one fieldset each). */
export function TemplateForm(props: {
  boardId: number;
  template: Template | null;
  initial: TemplateDraft;
  onDone: (saved: Template | null) => void;
}) {
  const name = useSignal(props.initial.name);
  const description = useSignal(props.initial.description);
  const rows = useSignal<TemplateTicket[]>(props.initial.tickets);
  const error = useSignal<string | null>(null);
  const busy = useSignal(false);

  const change = (index: number, changes: Partial<TemplateTicket>) => {
    rows.value = rows.value.map((row, at) => (at === index ? { ...row, ...changes } : row));
  };
  const nextKey = () => {
    const taken = new Set(rows.value.map((row) => row.key));
    let n = rows.value.length + 1;
    while (taken.has(`t${n}`)) n++;
    return `t${n}`;
  };
  const variables = variablesOf(rows.value);

  const submit = async () => {
    busy.value = true;
    error.value = null;
    try {
      const saved = await saveTemplate(props.boardId, props.template?.id ?? null, {
        name: name.value,
        description: description.value,
        tickets: rows.value,
      });
      props.onDone(saved);
    } catch (failure) {
      error.value = errorMessage(failure);
    } finally {
      busy.value = false;
    }
  };

  return (
    <form
      class="form-grid template-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label>
        Name
        <input
          required
          maxLength={200}
          value={name.value}
          ref={(element) => {
            if (element && !name.value && document.activeElement?.tagName !== "INPUT")
              element.focus();
          }}
          onInput={(event) => (name.value = (event.target as HTMLInputElement).value)}
        />
      </label>
      <label>
        Description (Markdown, optional)
        <textarea
          rows={2}
          value={description.value}
          onInput={(event) => (description.value = (event.target as HTMLTextAreaElement).value)}
        />
      </label>
      <p class="muted small">
        Write <code>{"{{name}}"}</code> in a title or body for a value asked when the template is
        used. {variables.length > 0 ? `Variables: ${variables.join(", ")}.` : "No variables yet."}
      </p>
      {rows.value.map((row, index) => (
        <fieldset key={index} class="template-ticket">
          <legend>Ticket {index + 1}</legend>
          <div class="template-ticket-grid">
            <label class="template-key">
              Key
              <input
                required
                maxLength={50}
                value={row.key}
                onInput={(event) =>
                  change(index, { key: (event.target as HTMLInputElement).value })
                }
              />
            </label>
            <label class="template-title">
              Title
              <input
                required
                value={row.title}
                onInput={(event) =>
                  change(index, { title: (event.target as HTMLInputElement).value })
                }
              />
            </label>
            <label>
              Lane
              <select
                value={row.laneName ?? ""}
                onChange={(event) => {
                  const value = (event.target as HTMLSelectElement).value;
                  change(index, { laneName: value === "" ? null : value });
                }}
              >
                <option value="">Chosen when used</option>
                {lanes.value.map((lane) => (
                  <option key={lane.id} value={lane.name}>
                    {lane.name}
                  </option>
                ))}
                {row.laneName !== null && !lanes.value.some((l) => l.name === row.laneName) && (
                  <option value={row.laneName}>{row.laneName} (not on the board)</option>
                )}
              </select>
            </label>
            <label>
              Priority
              <select
                value={row.priority}
                onChange={(event) =>
                  change(index, { priority: Number((event.target as HTMLSelectElement).value) })
                }
              >
                {[1, 2, 3, 4].map((priority) => (
                  <option key={priority} value={priority}>
                    {PRIORITIES[priority]}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Parent
              <select
                value={row.parentKey ?? ""}
                onChange={(event) => {
                  const value = (event.target as HTMLSelectElement).value;
                  change(index, { parentKey: value === "" ? null : value });
                }}
              >
                <option value="">None</option>
                {rows.value
                  .filter((other) => other.key !== row.key && other.key)
                  .map((other) => (
                    <option key={other.key} value={other.key}>
                      {other.key}
                    </option>
                  ))}
              </select>
            </label>
            <label>
              Blocked by
              <input
                placeholder="keys, e.g. t1, t2"
                value={row.blockerKeys.join(", ")}
                onChange={(event) =>
                  change(index, { blockerKeys: list((event.target as HTMLInputElement).value) })
                }
              />
            </label>
            <label class="template-tags">
              Tags
              <input
                placeholder="names, comma-separated"
                value={row.tagNames.join(", ")}
                onChange={(event) =>
                  change(index, { tagNames: list((event.target as HTMLInputElement).value) })
                }
              />
            </label>
            <label class="template-body">
              Body (Markdown)
              <textarea
                rows={2}
                value={row.bodyMarkdown}
                onInput={(event) =>
                  change(index, { bodyMarkdown: (event.target as HTMLTextAreaElement).value })
                }
              />
            </label>
          </div>
          {rows.value.length > 1 && (
            <button
              type="button"
              class="button button-ghost"
              onClick={() => (rows.value = rows.value.filter((_, at) => at !== index))}
            >
              Remove ticket {index + 1}
            </button>
          )}
        </fieldset>
      ))}
      <div>
        <button
          type="button"
          class="button"
          onClick={() => (rows.value = [...rows.value, emptyTicket(nextKey())])}
        >
          Add ticket
        </button>
      </div>
      {error.value && (
        <p class="notice notice-warn" role="alert">
          {error.value}
        </p>
      )}
      <div class="modal-actions">
        <button type="button" class="button" onClick={() => props.onDone(null)}>
          Cancel
        </button>
        <button type="submit" class="button button-primary" disabled={busy.value}>
          Save template
        </button>
      </div>
    </form>
  );
}
