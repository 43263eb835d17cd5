import { useSignal } from "@preact/signals";
import { formatDateTime } from "./bits";

/** `YYYY-MM-DDTHH:mm` in local time, what `<input type="datetime-local">` holds. */
function localValue(iso: string | null): string {
  if (!iso) return "";
  const at = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/**
 * A ticket's "not before" (docs/api.md, "Not before"): a local date and time picked here, sent as
 * an RFC 3339 moment in UTC; Clear sends null. Until then the ticket is out of the ready queue.
 */
export function NotBefore(props: {
  notBefore: string | null;
  onSet: (notBefore: string | null) => void;
}) {
  const value = useSignal(localValue(props.notBefore));
  const waiting = props.notBefore !== null && new Date(props.notBefore).getTime() > Date.now();
  const submit = () => {
    if (!value.value) return props.onSet(null);
    const at = new Date(value.value);
    if (!Number.isNaN(at.getTime())) props.onSet(at.toISOString());
  };
  return (
    <div class="field not-before">
      <label for="not-before-input">Not before</label>
      <div class="not-before-row">
        <input
          id="not-before-input"
          type="datetime-local"
          value={value.value}
          onInput={(event) => (value.value = (event.target as HTMLInputElement).value)}
          onChange={submit}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              submit();
            }
          }}
        />
        {props.notBefore && (
          <button
            type="button"
            class="button"
            onClick={() => {
              value.value = "";
              props.onSet(null);
            }}
          >
            Clear
          </button>
        )}
      </div>
      {props.notBefore && (
        <span class="muted small">
          {waiting
            ? `Not ready for agents until ${formatDateTime(props.notBefore)}.`
            : `Since ${formatDateTime(props.notBefore)}: ready again.`}
        </span>
      )}
    </div>
  );
}
