/**
 * The load scenarios of the idle-board table (plus position moves and bulk transitions) against a
 * seeded board, each with its target: server CPU per request (ms) on this machine class.
 */
import { RARE_WORD } from "./dataset.js";
import type { RequestSpec } from "./lib.js";
import type { Scenario } from "./load-loop.js";

export interface BoardFixture {
  boardId: number;
  laneIds: number[];
  ticketIds: number[];
}

export interface TargetedScenario extends Scenario {
  /** Target server CPU per request in ms, or null where the issue sets none. */
  cpuTargetMs: number | null;
  /** Requests in flight (10 as in the autocannon runs, unless a scenario says less). */
  concurrency?: number;
}

export function loadScenarios(board: BoardFixture): TargetedScenario[] {
  const { boardId, laneIds, ticketIds } = board;
  const ticket = (i: number) => ticketIds[(i * 7919) % ticketIds.length] as number;
  const lane = (i: number) => laneIds[i % laneIds.length] as number;
  const body =
    "Steps to reproduce:\n\n1. open the board\n2. drag a ticket\n\nExpected **no** error; " +
    "see https://ci.example.com/runs/1 and `npm test`.";
  return [
    {
      name: "create",
      cpuTargetMs: 0.4,
      request: (i): RequestSpec => ({
        method: "POST",
        path: `/api/boards/${boardId}/tickets`,
        body: { laneId: lane(i), title: `Created ${i}`, bodyMarkdown: `${body} ${i}` },
        expect: [201],
      }),
    },
    {
      name: "list q=word",
      cpuTargetMs: 1,
      request: () => ({ path: `/api/boards/${boardId}/tickets?q=${RARE_WORD}` }),
    },
    {
      name: "full list",
      cpuTargetMs: 10,
      request: () => ({ path: `/api/boards/${boardId}/tickets` }),
    },
    {
      name: "list lane_id",
      cpuTargetMs: 1.5,
      request: () => ({ path: `/api/boards/${boardId}/tickets?lane_id=${laneIds[0]}` }),
    },
    {
      name: "ticket detail",
      cpuTargetMs: 0.25,
      request: (i) => ({ path: `/api/tickets/${ticket(i)}` }),
    },
    {
      name: "PATCH title",
      cpuTargetMs: 0.4,
      request: (i) => ({
        method: "PATCH",
        path: `/api/tickets/${ticket(i)}`,
        body: { title: `Renamed ${i}` },
      }),
    },
    {
      name: "POST comment",
      cpuTargetMs: 0.4,
      request: (i) => ({
        method: "POST",
        path: `/api/tickets/${ticket(i)}/comments`,
        body: { bodyMarkdown: `Looked again: *still* failing (${i}).` },
        expect: [201],
      }),
    },
    {
      name: "position move",
      cpuTargetMs: null,
      request: (i) => ({
        method: "PATCH",
        path: `/api/tickets/${ticket(i)}/position`,
        body: { laneId: lane(i * 3), position: (i * 37) % 500 },
      }),
    },
    {
      name: "bulk-transition 500",
      cpuTargetMs: null,
      concurrency: 2,
      request: (i) => ({
        method: "POST",
        path: `/api/boards/${boardId}/tickets/bulk-transition`,
        body: {
          ticketIds: Array.from({ length: 500 }, (_, k) => ticket(i * 500 + k)),
          laneName: `lane ${(i % laneIds.length) + 1}`,
        },
      }),
    },
    {
      name: "export",
      cpuTargetMs: 120,
      concurrency: 2,
      request: () => ({ path: `/api/boards/${boardId}/export` }),
    },
  ];
}
