import { streamState } from "../board-data";
import { sidebarCollapsed } from "../prefs";
import { boardUrl, insightsUrl, navigate } from "../router";

export type BoardView = "kanban" | "list" | "insights";

/**
 * The start of a board's header, the same on the board and its Insights view: the sidebar
 * button (narrow windows), the board's name, the live dot, and the Kanban / List / Insights
 * switch. `liveTitle` says what "live" means on that page; `search` carries the board's filters
 * to the Kanban and List links.
 */
export function BoardHeading(props: {
  boardId: number;
  name: string | undefined;
  view: BoardView;
  search: string;
  liveTitle: string;
}) {
  const links: Array<[BoardView, string, string]> = [
    ["kanban", "Kanban", boardUrl(props.boardId, "kanban", props.search)],
    ["list", "List", boardUrl(props.boardId, "list", props.search)],
    ["insights", "Insights", insightsUrl(props.boardId)],
  ];
  const live = streamState.value === "live";
  return (
    <>
      <button
        type="button"
        class="icon-button narrow-only"
        aria-label="Boards and tags"
        title="Boards and tags"
        onClick={() => (sidebarCollapsed.value = false)}
      >
        ☰
      </button>
      <h1 class="board-name">{props.name}</h1>
      <span
        class={`live live-${streamState.value}`}
        title={live ? props.liveTitle : "Reconnecting…"}
      >
        <span class="live-dot" aria-hidden="true" />
        <span class="sr-only">{live ? "Live" : "Reconnecting"}</span>
      </span>
      <div class="segmented" role="group" aria-label="View">
        {links.map(([view, label, url]) => (
          <a
            key={view}
            href={url}
            aria-current={props.view === view ? "page" : undefined}
            title={view === "insights" ? "Insights (i)" : undefined}
            onClick={(event) => {
              event.preventDefault();
              navigate(url);
            }}
          >
            {label}
          </a>
        ))}
      </div>
    </>
  );
}
