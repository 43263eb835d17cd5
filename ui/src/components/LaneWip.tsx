import { useComputed } from "@preact/signals";
import { api, errorMessage } from "../api";
import { lanes, ticketsByLane } from "../store";
import { toast } from "../toasts";
import type { Lane } from "../types";

/** A lane's load: its tickets neither resolved nor archived (CONTRACT.md §14). */
export function laneLoad(laneId: number): number {
  let load = 0;
  for (const ticket of ticketsByLane.value.get(laneId) ?? []) {
    if (!ticket.isResolved && !ticket.isArchived) load++;
  }
  return load;
}

/**
 * `load / limit` in the lane header, marked once the lane is at its limit and more strongly
 * over it. Limits are soft: nothing is refused, the header shows where work piles up.
 */
export function LaneWipBadge({ lane }: { lane: Lane }) {
  const load = useComputed(() => laneLoad(lane.id));
  const limit = lane.wipLimit;
  if (limit == null) return null;
  const state = load.value > limit ? "over" : load.value === limit ? "full" : "under";
  const words =
    state === "over"
      ? `over its WIP limit: ${load.value} open, limit ${limit}`
      : state === "full"
        ? `at its WIP limit: ${load.value} open, limit ${limit}`
        : `${load.value} open of a WIP limit of ${limit}`;
  return (
    <span class={`lane-wip is-${state}`} title={`Lane ${words}`}>
      <span aria-hidden="true">
        {load.value} / {limit}
      </span>
      <span class="sr-only">Lane {words}</span>
    </span>
  );
}

/** Sets (a whole number 1-10,000) or clears (empty) a lane's WIP limit. */
export async function saveWipLimit(lane: Lane, text: string): Promise<void> {
  const trimmed = text.trim();
  const wipLimit = trimmed === "" ? null : Number(trimmed);
  if (wipLimit === (lane.wipLimit ?? null)) return;
  try {
    const updated = await api.patch<Lane>(`/api/lanes/${lane.id}`, { wipLimit });
    lanes.value = lanes.value.map((entry) => (entry.id === lane.id ? updated : entry));
  } catch (error) {
    toast(errorMessage(error), "error");
  }
}

/** The inline field the lane menu opens: Enter saves, Escape cancels, empty clears. */
export function WipLimitInput({ lane, onDone }: { lane: Lane; onDone: () => void }) {
  return (
    <input
      ref={(element) => element?.focus()}
      class="lane-rename"
      type="number"
      min={1}
      max={10000}
      placeholder="none"
      aria-label={`WIP limit of ${lane.name} (empty for none)`}
      defaultValue={lane.wipLimit == null ? "" : String(lane.wipLimit)}
      onKeyDown={(event) => {
        if (event.key === "Enter") {
          onDone();
          void saveWipLimit(lane, (event.target as HTMLInputElement).value);
        }
        if (event.key === "Escape") {
          event.stopPropagation();
          onDone();
        }
      }}
      onBlur={() => onDone()}
    />
  );
}
