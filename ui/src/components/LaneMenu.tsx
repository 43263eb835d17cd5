import { useSignal } from "@preact/signals";
import { useRef } from "preact/hooks";
import { api, errorMessage } from "../api";
import { boardId, lanes } from "../board-data";
import { overlay } from "../board-state";
import { refresh } from "../board-sync";
import { toast } from "../toasts";
import type { Lane } from "../types";
import { offerUndo } from "../undo";
import { WipLimitInput } from "./LaneWip";
import { Menu } from "./Menu";

/** A lane's actions: rename or set its WIP limit inline, move left/right, delete (empty only). */
export function LaneMenu({ lane }: { lane: Lane }) {
  const renaming = useSignal(false);
  const limiting = useSignal(false);
  const input = useRef<HTMLInputElement>(null);
  const list = lanes.value;
  const index = list.findIndex((entry) => entry.id === lane.id);

  const reorder = async (delta: number) => {
    const ids = list.map((entry) => entry.id);
    const [moved] = ids.splice(index, 1);
    if (moved === undefined) return;
    ids.splice(index + delta, 0, moved);
    try {
      const answer = await api.post<{ lanes: Lane[] }>(
        `/api/boards/${boardId.value}/lanes/reorder`,
        {
          laneIds: ids,
        },
      );
      lanes.value = answer.lanes;
    } catch (error) {
      toast(errorMessage(error), "error");
    }
  };

  const rename = async (name: string) => {
    renaming.value = false;
    if (!name.trim() || name.trim() === lane.name) return;
    try {
      const updated = await api.patch<Lane>(`/api/lanes/${lane.id}`, { name });
      lanes.value = lanes.value.map((entry) => (entry.id === lane.id ? updated : entry));
    } catch (error) {
      toast(errorMessage(error), "error");
    }
  };

  const remove = () => {
    overlay.value = {
      kind: "confirm",
      title: `Delete lane “${lane.name}”?`,
      message: "Only an empty lane can be deleted. Its tickets are not touched.",
      action: "Delete lane",
      run: async () => {
        try {
          await api.delete(`/api/lanes/${lane.id}`);
          lanes.value = lanes.value.filter((entry) => entry.id !== lane.id);
          void offerUndo([{ kind: "lane", objectId: lane.id }], `Lane “${lane.name}” deleted.`);
        } catch (error) {
          toast(`Cannot delete “${lane.name}”: ${errorMessage(error)}`, "error");
          void refresh(null);
        }
      },
    };
  };

  if (renaming.value) {
    return (
      <input
        ref={(element) => element?.focus()}
        class="lane-rename"
        aria-label="Lane name"
        defaultValue={lane.name}
        onKeyDown={(event) => {
          if (event.key === "Enter") void rename((event.target as HTMLInputElement).value);
          if (event.key === "Escape") {
            event.stopPropagation();
            renaming.value = false;
          }
        }}
        onBlur={(event) => {
          if (renaming.value) void rename((event.target as HTMLInputElement).value);
        }}
      />
    );
  }
  if (limiting.value) {
    return <WipLimitInput lane={lane} onDone={() => (limiting.value = false)} />;
  }
  void input;
  return (
    <Menu
      label={`Lane ${lane.name} actions`}
      items={[
        { label: "Rename", run: () => (renaming.value = true) },
        {
          label: lane.wipLimit == null ? "Set WIP limit…" : `WIP limit (${lane.wipLimit})…`,
          run: () => (limiting.value = true),
        },
        { label: "Move left", run: () => reorder(-1), disabled: index <= 0 },
        { label: "Move right", run: () => reorder(1), disabled: index >= list.length - 1 },
        { label: "Delete lane…", run: remove, danger: true },
      ]}
    />
  );
}
