import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api, errorMessage } from "../api";
import { boardId, lanes, lanesArriving } from "../board-data";
import { laneViews, phoneLaneId } from "../board-state";
import { openTicket } from "../navigation";
import { toast } from "../toasts";
import type { Lane } from "../types";
import { LaneColumn } from "./Lane";
import { LaneFigure, laneLoad, wipWords } from "./LaneWip";

const narrow = window.matchMedia("(max-width: 700px)");

/**
 * The board: lanes as columns; on a phone one lane at a time behind lane tabs with counts (or
 * load / limit, marked like the lane header).
 */
export function KanbanView() {
  const isNarrow = useSignal(narrow.matches);
  useEffect(() => {
    const update = () => (isNarrow.value = narrow.matches);
    narrow.addEventListener("change", update);
    return () => narrow.removeEventListener("change", update);
  }, []);
  const laneList = lanes.value;
  const views = laneViews.value;
  if (
    isNarrow.value &&
    (phoneLaneId.value === null || !laneList.some((l) => l.id === phoneLaneId.value))
  ) {
    phoneLaneId.value = laneList[0]?.id ?? null;
  }
  if (!isNarrow.value && phoneLaneId.value !== null) phoneLaneId.value = null;
  const shownLanes = isNarrow.value
    ? laneList.filter((lane) => lane.id === phoneLaneId.value)
    : laneList;

  return (
    <div class="kanban">
      {isNarrow.value && (
        <div class="lane-tabs" role="tablist" aria-label="Lanes">
          {laneList.map((lane) => {
            const arriving = lanesArriving.value.has(lane.id);
            return (
              <button
                key={lane.id}
                type="button"
                role="tab"
                aria-selected={lane.id === phoneLaneId.value}
                aria-busy={arriving ? "true" : undefined}
                // With a limit the tab's name says the load in words ("3/2" alone reads poorly),
                // once the lane is in: before, the load so far would be named as the lane's.
                aria-label={
                  lane.wipLimit == null || arriving
                    ? undefined
                    : `${lane.name}, ${wipWords(laneLoad(lane.id), lane.wipLimit)}`
                }
                class="lane-tab"
                onClick={() => (phoneLaneId.value = lane.id)}
              >
                {lane.name}{" "}
                <LaneFigure
                  lane={lane}
                  shown={views.get(lane.id)?.total ?? 0}
                  arriving={arriving}
                  compact
                />
              </button>
            );
          })}
        </div>
      )}
      <div class="board-scroller" data-board-scroller="1">
        {shownLanes.map((lane) => {
          const view = views.get(lane.id) ?? { shown: [], hiddenDone: 0, total: 0 };
          return <LaneColumn key={lane.id} lane={lane} view={view} onOpen={openTicket} />;
        })}
        {!isNarrow.value && <AddLane />}
      </div>
    </div>
  );
}

function AddLane() {
  const open = useSignal(false);
  const name = useSignal("");
  const submit = async () => {
    const value = name.value.trim();
    if (!value) return;
    try {
      const lane = await api.post<Lane>(`/api/boards/${boardId.value}/lanes`, { name: value });
      lanes.value = [...lanes.value, lane];
      name.value = "";
    } catch (error) {
      toast(errorMessage(error), "error");
    }
  };
  if (!open.value) {
    return (
      <button type="button" class="add-lane" onClick={() => (open.value = true)}>
        + Add lane
      </button>
    );
  }
  return (
    <form
      class="add-lane add-lane-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <input
        ref={(element) => element?.focus()}
        aria-label="New lane name"
        placeholder="Lane name"
        value={name.value}
        onInput={(event) => (name.value = (event.target as HTMLInputElement).value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            event.stopPropagation();
            open.value = false;
          }
        }}
      />
      <div class="quick-add-actions">
        <button type="submit" class="button button-primary">
          Add lane
        </button>
        <button type="button" class="button" onClick={() => (open.value = false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
