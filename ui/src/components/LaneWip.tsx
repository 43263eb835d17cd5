import { useComputed } from "@preact/signals";
import { api, errorMessage } from "../api";
import { lanes, ticketsByLane } from "../board-data";
import { toast } from "../toasts";
import type { Lane } from "../types";

/** A lane's load: its tickets neither resolved nor archived (docs/api.md, "Insights"). */
export function laneLoad(laneId: number): number {
  let load = 0;
  for (const ticket of ticketsByLane.value.get(laneId) ?? []) {
    if (!ticket.isResolved && !ticket.isArchived) load++;
  }
  return load;
}

type WipState = "under" | "full" | "over";

function wipState(load: number, limit: number): WipState {
  return load > limit ? "over" : load === limit ? "full" : "under";
}

/** The load against the limit in words, for screen readers and tooltips. */
export function wipWords(load: number, limit: number): string {
  const state = wipState(load, limit);
  return state === "over"
    ? `over its WIP limit: ${load} open, limit ${limit}`
    : state === "full"
      ? `at its WIP limit: ${load} open, limit ${limit}`
      : `${load} open of a WIP limit of ${limit}`;
}

/**
 * A lane's figure in its header and in its phone tab. With a WIP limit it is the load against
 * the limit, once (a ticket count beside it read as "Doing 3 [3 / 2]"); without one, the number
 * of tickets the lane shows; while the lane's tickets arrive, the number so far with an ellipsis.
 */
export function LaneFigure(props: {
  lane: Lane;
  shown: number;
  compact?: boolean;
  /** Its tickets are still arriving: the figure so far, marked as such. */
  arriving?: boolean;
}) {
  const { lane, shown } = props;
  if (props.arriving) {
    return (
      <span class="lane-count" title={`${shown} ticket(s) so far, more loading`}>
        {shown}…
      </span>
    );
  }
  if (lane.wipLimit == null) {
    return (
      <span class="lane-count" title={`${shown} ticket(s) shown`}>
        {shown}
      </span>
    );
  }
  return <LaneWipBadge lane={lane} limit={lane.wipLimit} compact={props.compact ?? false} />;
}

/**
 * `load / limit`, marked once the lane is at its limit and more strongly over it (colour and
 * weight; the figures themselves say it without colour). Limits are soft: nothing is refused,
 * the header shows where work piles up. `compact` drops the spaces, for the phone's lane tabs.
 */
function LaneWipBadge(props: { lane: Lane; limit: number; compact: boolean }) {
  const { lane, limit } = props;
  const load = useComputed(() => laneLoad(lane.id));
  const words = wipWords(load.value, limit);
  return (
    <span class={`lane-wip is-${wipState(load.value, limit)}`} title={`Lane ${words}`}>
      <span aria-hidden="true">
        {props.compact ? `${load.value}/${limit}` : `${load.value} / ${limit}`}
      </span>
      <span class="sr-only">Lane {words}</span>
    </span>
  );
}

/** Sets (a whole number 1-10,000) or clears (empty) a lane's WIP limit. */
export async function saveWipLimit(lane: Lane, text: string): Promise<void> {
  const trimmed = text.trim();
  const wipLimit = trimmed === "" ? null : Number(trimmed);
  if (wipLimit === lane.wipLimit) return;
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
