import { useSignal, useSignalEffect } from "@preact/signals";
import { useEffect, useLayoutEffect, useMemo, useRef } from "preact/hooks";
import { api, errorMessage } from "../api";
import { boardId, lanes, streamMessages, tickets } from "../board-data";
import {
  actorsTable,
  agingTable,
  bucketFits,
  completionsTable,
  flowTable,
  type Insights,
  insightsPath,
  readSelection,
  type Selection,
  selectionSearch,
  throughputTable,
} from "../insights-data";
import { openTicket } from "../navigation";
import { theme } from "../prefs";
import { insightsUrl, navigate, query, route } from "../router";
import "../insights.css";
import { Chart, type Palette, readPalette } from "./InsightsChart";
import { InsightsHeader, InsightsSummary } from "./InsightsHeader";
import { InsightsTable } from "./InsightsTable";
import { agingSpec, cycleSpec, flowSpec, throughputSpec } from "./insights-specs";

// The Insights view (/boards/{id}/insights): how work moved on the open board over a period,
// from GET /api/boards/{id}/insights. Each chart has its table and CSV beside it; the view
// refetches at most once a second while the board's stream reports changes.

/** Live refetches are at most this often. */
const REFRESH_MS = 1000;

export function InsightsView() {
  const current = route.value;
  const id = current.name === "insights" ? current.boardId : boardId.value;
  const selection = readSelection(query.value);
  const data = useSignal<Insights | null>(null);
  const error = useSignal<string | null>(null);
  const palette = useSignal<Palette | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const fetchState = useRef({ token: 0, last: 0, timer: 0 as ReturnType<typeof setTimeout> | 0 });

  const load = async () => {
    if (id === null) return;
    const state = fetchState.current;
    const token = ++state.token;
    state.last = Date.now();
    performance.mark("insights-request");
    try {
      const answer = await api.get<Insights>(insightsPath(id, selection));
      if (token !== state.token) return;
      performance.mark("insights-data");
      data.value = answer;
      error.value = null;
    } catch (failure) {
      if (token === state.token) error.value = errorMessage(failure);
    }
  };

  // A new board, period or bucket: fetch now.
  useEffect(() => {
    data.value = null;
    void load();
  }, [id, selection.period, selection.bucket]);

  // Live: every stream message asks for a refetch, at most one per REFRESH_MS.
  const seenMessages = useRef(streamMessages.peek());
  useSignalEffect(() => {
    const count = streamMessages.value;
    if (count === seenMessages.current) return;
    seenMessages.current = count;
    const state = fetchState.current;
    if (state.timer) return;
    const wait = Math.max(0, state.last + REFRESH_MS - Date.now());
    state.timer = setTimeout(() => {
      state.timer = 0;
      void load();
    }, wait);
  });
  useEffect(() => () => clearTimeout(fetchState.current.timer || undefined), []);

  // Canvas colours follow the theme: read them again when it or the system's scheme changes.
  useLayoutEffect(() => {
    const element = root.current;
    if (!element) return;
    const read = () => (palette.value = readPalette(element));
    read();
    const media = matchMedia("(prefers-color-scheme: dark)");
    media.addEventListener("change", read);
    const unsubscribe = theme.subscribe(() => requestAnimationFrame(read));
    return () => {
      media.removeEventListener("change", read);
      unsubscribe();
    };
  }, []);

  const choose = (next: Partial<Selection>) => {
    if (id === null) return;
    const merged = { ...selection, ...next };
    // A bucket that does not fit the new period gives way to one that does.
    const fixed = bucketFits(merged.period, merged.bucket)
      ? merged
      : readSelection(new URLSearchParams({ period: merged.period }));
    navigate(insightsUrl(id, selectionSearch(fixed)), { replace: true });
  };

  return (
    <div class="insights" ref={root} data-state={data.value ? "ready" : "loading"}>
      <InsightsHeader selection={selection} onChoose={choose} />
      <div class="insights-body">
        {error.value && (
          <p class="insights-error" role="alert">
            {error.value}
          </p>
        )}
        {data.value && palette.value ? (
          <Charts insights={data.value} palette={palette.value} />
        ) : (
          !error.value && <p class="muted">Loading insights…</p>
        )}
      </div>
    </div>
  );
}

function Charts(props: { insights: Insights; palette: Palette }) {
  const { insights, palette } = props;
  const laneList = lanes.value;
  const ticketMap = tickets.value;
  const laneIds = insights.flow[0]?.lanes.map((entry) => entry.laneId) ?? [];
  const laneNames = laneList.map((lane) => ({ id: lane.id, name: lane.name }));
  const refOf = (ticketId: number) => ticketMap.get(ticketId)?.shortRef ?? `#${ticketId}`;
  const titleOf = (ticketId: number) => ticketMap.get(ticketId)?.title ?? "";

  const specs = useMemo(
    () => ({
      flow: flowSpec(insights, laneNames, palette),
      cycle: cycleSpec(insights, palette),
      throughput: throughputSpec(insights, palette),
      aging: agingSpec(insights, laneIds, laneNames, palette),
    }),
    // Lane names by value: a refetched shell (a new array) alone does not redraw the charts.
    [insights, palette, laneNames.map((lane) => `${lane.id}:${lane.name}`).join("\n")],
  );

  // Charts draw in their layout effects (children first): the frame after is "drawn".
  useLayoutEffect(() => {
    requestAnimationFrame(() => {
      performance.mark("insights-drawn");
      try {
        performance.measure("insights-draw", "insights-data", "insights-drawn");
      } catch {
        // No data mark (a re-render without a fetch): nothing to measure.
      }
      document.querySelector(".insights")?.setAttribute("data-drawn", String(Date.now()));
    });
  }, [specs]);

  const pickTicket = (ids: readonly (number | null)[]) => (index: number) => {
    const ticketId = ids[index];
    if (typeof ticketId === "number") openTicket(ticketId);
  };

  return (
    <>
      <InsightsSummary insights={insights} />
      <section class="insights-card insights-wide" aria-labelledby="insights-flow">
        <h2 id="insights-flow">Cumulative flow</h2>
        <p class="insights-hint">
          Tickets in each lane at the end of each {insights.bucket}, first lane on top.
        </p>
        <Chart label="Cumulative flow diagram" spec={specs.flow.spec} height={240} />
        <InsightsTable table={flowTable(insights, laneNames)} bucket={insights.bucket} />
      </section>
      <section class="insights-card" aria-labelledby="insights-cycle">
        <h2 id="insights-cycle">Cycle time</h2>
        <p class="insights-hint">
          Each dot a resolved ticket (when, how long from start); lines at 50, 85 and 95 %.
        </p>
        <Chart
          label="Cycle time scatter plot"
          spec={specs.cycle.spec}
          height={240}
          onPick={pickTicket(specs.cycle.ticketIds)}
        />
        <InsightsTable
          table={completionsTable(insights, refOf)}
          bucket={insights.bucket}
          titleOf={titleOf}
        />
      </section>
      <section class="insights-card" aria-labelledby="insights-throughput">
        <h2 id="insights-throughput">Throughput</h2>
        <p class="insights-hint">Resolutions per {insights.bucket}.</p>
        <Chart label="Throughput per bucket" spec={specs.throughput.spec} height={240} />
        <InsightsTable table={throughputTable(insights)} bucket={insights.bucket} />
      </section>
      <section class="insights-card insights-wide" aria-labelledby="insights-aging">
        <h2 id="insights-aging">Aging work in progress</h2>
        <p class="insights-hint">
          Open tickets per lane, oldest first (left): how long each has been in its lane. Click a
          dot to open its ticket.
        </p>
        <Chart
          label="Aging work in progress per lane"
          spec={specs.aging.spec}
          height={260}
          onPick={pickTicket(specs.aging.ticketIds)}
        />
        <InsightsTable
          table={agingTable(insights, laneNames, refOf)}
          bucket={insights.bucket}
          titleOf={titleOf}
        />
      </section>
      <section class="insights-card insights-wide" aria-labelledby="insights-actors">
        <h2 id="insights-actors">Actors</h2>
        <p class="insights-hint">
          Who claimed tickets in the period, and how many of those they resolved while holding the
          claim.
        </p>
        <InsightsTable table={actorsTable(insights)} bucket={insights.bucket} open />
      </section>
    </>
  );
}
