import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { errorMessage } from "../api";
import { boardId, lanes } from "../board-data";
import {
  deleteTemplate,
  draftFromTickets,
  emptyTicket,
  instantiate,
  listTemplates,
  type TemplateDraft,
} from "../templates";
import { announce, toast } from "../toasts";
import type { Template } from "../types";
import { Modal } from "./Modal";
import { TemplateForm } from "./TemplateForm";

type View =
  | { kind: "list" }
  | { kind: "edit"; template: Template | null; draft: TemplateDraft }
  | { kind: "use"; template: Template };

/**
 * The board's templates: list, "New from template" (a field per variable), create (by hand or
 * from the selected tickets), edit, delete. `fromTicketIds` opens the form drafted from them.
 */
export function Templates(props: { fromTicketIds?: number[]; onClose: () => void }) {
  const board = boardId.value;
  const templates = useSignal<Template[] | null>(null);
  const error = useSignal<string | null>(null);
  const view = useSignal<View>({ kind: "list" });

  const reload = async () => {
    if (board === null) return;
    try {
      templates.value = await listTemplates(board);
      error.value = null;
    } catch (failure) {
      error.value = errorMessage(failure);
    }
  };
  useEffect(() => {
    void reload();
    if (props.fromTicketIds?.length) {
      draftFromTickets(props.fromTicketIds).then(
        (tickets) =>
          (view.value = {
            kind: "edit",
            template: null,
            draft: { name: "", description: "", tickets },
          }),
        (failure) => toast(errorMessage(failure), "error"),
      );
    }
  }, []);
  if (board === null) return null;

  const current = view.value;
  const title =
    current.kind === "edit"
      ? current.template
        ? `Edit template “${current.template.name}”`
        : "New template"
      : current.kind === "use"
        ? `New from “${current.template.name}”`
        : "Templates";

  return (
    <Modal label={title} class="modal-wide templates" onClose={props.onClose}>
      <h2 class="modal-title">{title}</h2>
      {current.kind === "list" && (
        <>
          {error.value && (
            <p class="notice notice-warn" role="alert">
              {error.value}
            </p>
          )}
          {templates.value === null ? (
            <p class="muted">Loading…</p>
          ) : templates.value.length === 0 ? (
            <p class="muted">
              No templates on this board yet. A template is a set of tickets (with parents, blockers
              and <code>{"{{variables}}"}</code>) made in one step. Select tickets and choose “Save
              as template”, or write one here.
            </p>
          ) : (
            <ul class="template-list">
              {templates.value.map((template) => (
                <li key={template.id} class="template-item">
                  <div class="template-what">
                    <strong>{template.name}</strong>
                    <span class="muted small">
                      {template.tickets.length} ticket(s)
                      {template.variables.length > 0 &&
                        ` · variables: ${template.variables.join(", ")}`}
                    </span>
                    {template.description && (
                      <span class="muted small template-description">{template.description}</span>
                    )}
                  </div>
                  <div class="template-actions">
                    <button
                      type="button"
                      class="button button-primary"
                      aria-label={`New from template ${template.name}`}
                      onClick={() => (view.value = { kind: "use", template })}
                    >
                      New from template
                    </button>
                    <button
                      type="button"
                      class="button"
                      aria-label={`Edit template ${template.name}`}
                      onClick={() =>
                        (view.value = {
                          kind: "edit",
                          template,
                          draft: {
                            name: template.name,
                            description: template.description,
                            tickets: template.tickets,
                          },
                        })
                      }
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      class="button button-danger"
                      aria-label={`Delete template ${template.name}`}
                      onClick={async () => {
                        if (!window.confirm(`Delete the template “${template.name}”?`)) return;
                        try {
                          await deleteTemplate(template.id);
                          announce(`Template ${template.name} deleted.`);
                          await reload();
                        } catch (failure) {
                          toast(errorMessage(failure), "error");
                        }
                      }}
                    >
                      Delete
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          )}
          <div class="modal-actions">
            <button type="button" class="button" onClick={props.onClose}>
              Close
            </button>
            <button
              type="button"
              class="button"
              onClick={() =>
                (view.value = {
                  kind: "edit",
                  template: null,
                  draft: { name: "", description: "", tickets: [emptyTicket("t1")] },
                })
              }
            >
              New template
            </button>
          </div>
        </>
      )}
      {current.kind === "edit" && (
        <TemplateForm
          boardId={board}
          template={current.template}
          initial={current.draft}
          onDone={async (saved) => {
            if (saved) toast(`Template “${saved.name}” saved.`);
            view.value = { kind: "list" };
            await reload();
          }}
        />
      )}
      {current.kind === "use" && (
        <UseTemplate
          template={current.template}
          onBack={() => (view.value = { kind: "list" })}
          onMade={props.onClose}
        />
      )}
    </Modal>
  );
}

/** "New from template": a field per variable, the lane for tickets without one, then create. */
function UseTemplate(props: { template: Template; onBack: () => void; onMade: () => void }) {
  const { template } = props;
  const values = useSignal<Record<string, string>>({});
  const laneId = useSignal<number | null>(null);
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  const withoutLane = template.tickets.filter((ticket) => ticket.laneName === null).length;

  const submit = async () => {
    busy.value = true;
    error.value = null;
    try {
      const made = await instantiate(template.id, values.value, laneId.value);
      toast(`${made.length} ticket(s) made from “${template.name}”.`);
      announce(`${made.length} tickets made from ${template.name}.`);
      props.onMade();
    } catch (failure) {
      error.value = errorMessage(failure);
    } finally {
      busy.value = false;
    }
  };

  return (
    <form
      class="form-grid"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <p class="muted">
        Makes {template.tickets.length} ticket(s):{" "}
        {template.tickets
          .map((t) =>
            t.title.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => values.value[name] || whole),
          )
          .join(" · ")}
      </p>
      {template.variables.map((name, index) => (
        <label key={name}>
          {name}
          <input
            required
            ref={(element) => {
              if (index === 0 && element && !values.value[name]) element.focus();
            }}
            value={values.value[name] ?? ""}
            onInput={(event) =>
              (values.value = {
                ...values.value,
                [name]: (event.target as HTMLInputElement).value,
              })
            }
          />
        </label>
      ))}
      {withoutLane > 0 && (
        <label>
          Lane for the {withoutLane} ticket(s) without one
          <select
            value={laneId.value ?? ""}
            onChange={(event) => {
              const value = (event.target as HTMLSelectElement).value;
              laneId.value = value === "" ? null : Number(value);
            }}
          >
            <option value="">The board's first lane</option>
            {lanes.value.map((lane) => (
              <option key={lane.id} value={lane.id}>
                {lane.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {error.value && (
        <p class="notice notice-warn" role="alert">
          {error.value}
        </p>
      )}
      <div class="modal-actions">
        <button type="button" class="button" onClick={props.onBack}>
          Back
        </button>
        <button type="submit" class="button button-primary" disabled={busy.value}>
          Create {template.tickets.length} ticket(s)
        </button>
      </div>
    </form>
  );
}
