import { useSignal } from "@preact/signals";
import {
  type Cell,
  type CellKind,
  formatBucket,
  formatDuration,
  formatTime,
  type Table,
  toCsv,
} from "../insights-data";
import { openTicket } from "../navigation";

// A chart's data as a table (inside <details>, built only while open: a big board's aging list
// has thousands of rows) and as a CSV download of the same rows with raw values.

export function InsightsTable(props: {
  table: Table;
  bucket: string;
  titleOf?: (ticketId: number) => string;
  /** Shown without a <details> around it (a table that is the figure itself). */
  open?: boolean;
}) {
  const shown = useSignal(props.open ?? false);
  const { table } = props;
  // A function, so rows (thousands on a big board) are only built while the table shows.
  // The wrapper scrolls (max-height), so it takes focus: keyboard users scroll it too.
  const body = () => (
    <div
      class="insights-table-wrap"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus (axe: scrollable-region-focusable)
      tabIndex={0}
      role="region"
      aria-label={`${table.name.replace("-", " ")} table`}
    >
      <table class="insights-table" data-table={table.name}>
        <thead>
          <tr>
            {table.header.map((name, column) => (
              <th key={name} scope="col" class={`cell-${table.kinds[column]}`}>
                {name.replace(/ \(s\)$/, "")}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, index) => (
            <tr key={index}>
              {row.map((cell, column) => (
                <td key={column} class={`cell-${table.kinds[column]}`}>
                  {renderCell(cell, table.kinds[column] ?? "text", props, table.ticketIds?.[index])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {table.rows.length === 0 && <p class="muted">Nothing in this period.</p>}
    </div>
  );
  return (
    <div class="insights-data">
      <button
        type="button"
        class="link-button insights-csv"
        data-csv={table.name}
        aria-label={`Download CSV of ${table.name.replace("-", " ")}`}
        onClick={() => download(`${table.name}.csv`, toCsv(table.header, table.rows))}
      >
        Download CSV
      </button>
      {props.open ? (
        body()
      ) : (
        <details
          onToggle={(event) => (shown.value = (event.currentTarget as HTMLDetailsElement).open)}
        >
          <summary>Table ({table.rows.length} rows)</summary>
          {shown.value && body()}
        </details>
      )}
    </div>
  );
}

function renderCell(
  cell: Cell,
  kind: CellKind,
  props: { bucket: string; titleOf?: (ticketId: number) => string },
  ticketId: number | undefined,
) {
  if (cell === null) return "–";
  switch (kind) {
    case "bucket":
      return <time dateTime={String(cell)}>{formatBucket(String(cell), props.bucket)}</time>;
    case "time":
      return <time dateTime={String(cell)}>{formatTime(String(cell))}</time>;
    case "duration":
      return formatDuration(Number(cell));
    case "ticket":
      if (ticketId === undefined) return String(cell);
      return (
        <>
          <button type="button" class="link-button" onClick={() => openTicket(ticketId)}>
            {String(cell)}
          </button>{" "}
          <span class="insights-ticket-title">{props.titleOf?.(ticketId)}</span>
        </>
      );
    default:
      return String(cell);
  }
}

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
