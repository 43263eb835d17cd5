import { useSignal } from "@preact/signals";
import { api, errorMessage } from "../api";
import {
  guessProvider,
  parseIssueUrl,
  REFERENCE_KIND,
  REFERENCE_PROVIDERS,
  type ReferenceFields,
  type ReferenceProvider,
} from "../issue-url";
import type { Ticket } from "../types";

interface Props {
  ticket: Ticket;
  etag: string | null;
  onChanged: (fresh: Ticket) => void;
}

const EMPTY: ReferenceFields = {
  provider: "github",
  instanceUrl: "",
  projectKey: "",
  issueKey: "",
  displayRef: "",
  url: "",
};

/** The derived fields, editable when the URL could not be read (or was read wrongly). */
const FIELD_LABELS: [keyof ReferenceFields, string][] = [
  ["instanceUrl", "Instance URL"],
  ["projectKey", "Project"],
  ["issueKey", "Issue number"],
  ["displayRef", "Shown as"],
];

/**
 * Adds (or replaces) an external reference: paste an issue URL, pick a kind; provider, instance,
 * project, issue and the shown text are read from the URL and stay editable.
 */
export function ReferenceForm({ ticket, etag, onChanged }: Props) {
  const kind = useSignal("");
  const provider = useSignal<ReferenceProvider>("github");
  const fields = useSignal<ReferenceFields>(EMPTY);
  const title = useSignal("");
  const unreadable = useSignal(false);
  const showFields = useSignal(false);
  const error = useSignal<string | null>(null);
  const saving = useSignal(false);

  const derive = (url: string, chosen: ReferenceProvider) => {
    provider.value = chosen;
    const parsed = url.trim() ? parseIssueUrl(url, chosen) : null;
    unreadable.value = url.trim() !== "" && parsed === null;
    if (unreadable.value) showFields.value = true;
    fields.value = parsed ?? { ...fields.value, provider: chosen, url: url.trim() };
  };

  const replacing = ticket.externalReferences.some((reference) => reference.kind === kind.value);

  const submit = async () => {
    if (saving.value) return;
    const wantedKind = kind.value.trim();
    if (!REFERENCE_KIND.test(wantedKind)) {
      error.value =
        "Kind must start with a letter, then letters, digits, _ or - (at most 64 characters).";
      return;
    }
    saving.value = true;
    error.value = null;
    try {
      const fresh = await api.put<Ticket>(
        `/api/tickets/${ticket.id}/external-references/${encodeURIComponent(wantedKind)}`,
        { ...fields.value, title: title.value.trim() || null },
        // The ticket's other writes carry If-Match too; a server that checks it refuses a stale write.
        { ifMatch: etag ?? undefined },
      );
      kind.value = "";
      title.value = "";
      fields.value = { ...EMPTY, provider: provider.value };
      unreadable.value = false;
      showFields.value = false;
      onChanged(fresh);
    } catch (failure) {
      error.value = errorMessage(failure);
    } finally {
      saving.value = false;
    }
  };

  /** An input's new value; typing clears the last error. */
  const typed = (event: Event) => {
    error.value = null;
    return (event.target as HTMLInputElement).value;
  };

  return (
    <form
      class="form-grid reference-form"
      aria-label="Add reference"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label>
        Issue URL
        <input
          type="url"
          required
          placeholder="https://github.com/owner/repo/issues/1"
          value={fields.value.url}
          onInput={(event) => {
            const url = typed(event);
            derive(url, guessProvider(url) ?? provider.value);
          }}
        />
      </label>
      <div class="reference-form-row">
        <label>
          Kind
          <input
            required
            list="reference-kinds"
            placeholder="source"
            maxLength={64}
            value={kind.value}
            onInput={(event) => (kind.value = typed(event))}
          />
          <datalist id="reference-kinds">
            <option value="source" />
            <option value="spec" />
            <option value="doc" />
          </datalist>
        </label>
        <label>
          Provider
          <select
            value={provider.value}
            onChange={(event) =>
              derive(
                fields.value.url,
                (event.target as HTMLSelectElement).value as ReferenceProvider,
              )
            }
          >
            {REFERENCE_PROVIDERS.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </label>
      </div>
      {unreadable.value && (
        <p class="muted small" role="status">
          Not a {provider.value} issue URL: choose another provider or fill in the fields.
        </p>
      )}
      <details
        open={showFields.value}
        onToggle={(event) => (showFields.value = (event.target as HTMLDetailsElement).open)}
      >
        <summary>Fields{fields.value.displayRef ? `: ${fields.value.displayRef}` : ""}</summary>
        <div class="form-grid">
          {FIELD_LABELS.map(([name, label]) => (
            <label key={name}>
              {label}
              <input
                required={name === "displayRef"}
                value={fields.value[name]}
                onInput={(event) => (fields.value = { ...fields.value, [name]: typed(event) })}
              />
            </label>
          ))}
          <label>
            Title (optional)
            <input
              maxLength={500}
              value={title.value}
              onInput={(event) => (title.value = typed(event))}
            />
          </label>
        </div>
      </details>
      {error.value && (
        <p class="form-error" role="alert">
          {error.value}
        </p>
      )}
      <button type="submit" class="button" disabled={saving.value}>
        {saving.value ? "Saving…" : replacing ? `Replace ${kind.value} reference` : "Add reference"}
      </button>
    </form>
  );
}
