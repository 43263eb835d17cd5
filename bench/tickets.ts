/**
 * Ticket endpoints on one large board: 5,000 tickets with tags, parent/child links, blockers,
 * related links and Markdown bodies of 1-2 KB, seeded through the API. Measures the board list
 * (unfiltered, by lane, searched), the single ticket, and the writes agents and the UI make all
 * day: create, PATCH and position moves.
 */
import { performance } from "node:perf_hooks";
import {
  type BenchReport,
  Client,
  inParallel,
  type LoadOptions,
  runLoad,
  type Scenario,
  scenarioDurationMs,
  startTack,
} from "./lib.js";

const TICKETS = 5_000;
/** Tickets created first, without links, so the rest can link to them whatever the order. */
const ANCHORS = 1_000;
const LANES = ["backlog", "todo", "doing", "review", "done"];
const TAGS = 20;
const CONCURRENCY = 8;

/** Deterministic pseudo-random numbers (a linear congruential generator), for comparable runs. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const WORDS = (
  "agent board cache deploy error flaky fix index latency memory migrate parser queue " +
  "refactor release retry schema search socket timeout token upload webhook worker"
).split(" ");

/** A Markdown body of roughly 1-2 KB: headings, lists, code, links, a table. */
function bodyOf(index: number, next: () => number): string {
  const word = () => WORDS[Math.floor(next() * WORDS.length)] as string;
  const sentence = () => Array.from({ length: 12 }, word).join(" ");
  const paragraphs = 5 + Math.floor(next() * 6);
  return [
    `## Context for ticket ${index}`,
    ...Array.from({ length: paragraphs }, () => `${sentence()}. ${sentence()}.`),
    "- [ ] reproduce locally",
    `- [x] see #${1 + Math.floor(next() * ANCHORS)}`,
    `- check https://example.test/issues/${index}`,
    "```ts",
    `const ${word()} = await ${word()}(${index});`,
    "```",
    "| step | status |",
    "|---|---|",
    `| ${word()} | ${word()} |`,
  ].join("\n\n");
}

export async function runTicketBench(): Promise<BenchReport> {
  const tack = await startTack();
  const client = new Client(tack.url);
  try {
    const seedStarted = performance.now();
    const detail = await client.ok(
      { method: "POST", path: "/api/boards", body: { name: "Bench", laneNames: LANES } },
      201,
    );
    const boardId: number = detail.board.id;
    const laneIds: number[] = detail.lanes.map((lane: { id: number }) => lane.id);
    const tagIds: number[] = [];
    for (let tag = 0; tag < TAGS; tag++) {
      const created = await client.ok(
        { method: "POST", path: `/api/boards/${boardId}/tags`, body: { name: `tag ${tag}` } },
        201,
      );
      tagIds.push(created.id);
    }

    const ticketIds: number[] = [];
    const laneOf = new Map<number, number>();
    let bodyBytes = 0;
    const create = async (index: number) => {
      const next = random(index + 1);
      const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)] as T;
      const anchor = () => ticketIds[Math.floor(next() * Math.min(ANCHORS, ticketIds.length))];
      const bodyMarkdown = bodyOf(index, next);
      bodyBytes += Buffer.byteLength(bodyMarkdown);
      const fields: Record<string, unknown> = {
        laneId: pick(laneIds),
        title: `${pick(WORDS)} ${pick(WORDS)} ${index}`,
        bodyMarkdown,
        priority: 1 + Math.floor(next() * 4),
        isResolved: next() < 0.2,
        isArchived: next() < 0.05,
        tagIds: [...new Set(Array.from({ length: Math.floor(next() * 4) }, () => pick(tagIds)))],
      };
      if (index >= ANCHORS) {
        // Anchors only ever get children, so every parent stays one level deep.
        if (next() < 0.3) fields.parentTicketId = anchor();
        if (next() < 0.3) fields.blockerIds = [anchor(), anchor()];
        if (next() < 0.2) fields.relatedIds = [anchor()];
      }
      const ticket = await client.ok(
        { method: "POST", path: `/api/boards/${boardId}/tickets`, body: fields },
        201,
      );
      ticketIds.push(ticket.id);
      laneOf.set(ticket.id, ticket.laneId);
    };
    await inParallel(ANCHORS, CONCURRENCY, create);
    await inParallel(TICKETS - ANCHORS, CONCURRENCY, (index) => create(ANCHORS + index));
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const seedMemory = tack.memory();

    const ticketAt = (i: number) => ticketIds[(i * 7919) % ticketIds.length] as number;
    const laneAt = (i: number) => laneIds[i % laneIds.length] as number;
    // A few warm-up requests only: one unfiltered list is a 2-3 MB response.
    const reads: LoadOptions = {
      concurrency: CONCURRENCY,
      durationMs: scenarioDurationMs(),
      warmupRequests: 16,
    };
    // Writes are capped so the board stays near 5,000 tickets whatever the machine's speed.
    const writes: LoadOptions = { ...reads, maxRequests: 3_000 };
    const list = `/api/boards/${boardId}/tickets`;

    const scenarios: [Scenario, LoadOptions][] = [
      [{ name: "list (all 5,000)", request: () => ({ path: list }) }, reads],
      [{ name: "list ?archived=all", request: () => ({ path: `${list}?archived=all` }) }, reads],
      [
        { name: "list ?lane_id", request: (i) => ({ path: `${list}?lane_id=${laneAt(i)}` }) },
        reads,
      ],
      [
        {
          name: "list ?q=<word>",
          request: (i) => ({
            path: `${list}?q=${WORDS[i % WORDS.length]}%20${WORDS[(i + 3) % WORDS.length]}`,
          }),
        },
        reads,
      ],
      [{ name: "list ?q=#<id>", request: (i) => ({ path: `${list}?q=%23${ticketAt(i)}` }) }, reads],
      [
        {
          name: "list ?tag&resolved",
          request: (i) => ({ path: `${list}?tag=tag%20${i % TAGS}&resolved=false` }),
        },
        reads,
      ],
      [
        {
          name: "GET /api/tickets/{id}",
          request: (i) => ({ path: `/api/tickets/${ticketAt(i)}` }),
        },
        reads,
      ],
      [
        {
          name: "GET /api/tickets/{id}/relations",
          request: (i) => ({ path: `/api/tickets/${ticketAt(i)}/relations` }),
        },
        reads,
      ],
      [
        {
          name: "POST create (1.5 KB body)",
          request: (i) => ({
            method: "POST",
            path: list,
            body: {
              laneId: laneAt(i),
              title: `created ${i}`,
              bodyMarkdown: bodyOf(i, random(i)),
              tagIds: [tagIds[i % TAGS]],
            },
            expect: [201],
          }),
        },
        { ...writes, maxRequests: 1_000 },
      ],
      [
        {
          name: "PATCH priority+title",
          request: (i) => ({
            method: "PATCH",
            path: `/api/tickets/${ticketAt(i)}`,
            body: { priority: 1 + (i % 4), title: `patched ${i}` },
          }),
        },
        writes,
      ],
      [
        {
          name: "PATCH position (same lane)",
          request: (i) => ({
            method: "PATCH",
            path: `/api/tickets/${ticketAt(i)}/position`,
            // Runs before any lane change, so the lane recorded at seeding is still right.
            body: { laneId: laneOf.get(ticketAt(i)), position: (i * 31) % 400 },
          }),
        },
        writes,
      ],
      [
        {
          name: "PATCH position (to other lane)",
          request: (i) => ({
            method: "PATCH",
            path: `/api/tickets/${ticketAt(i)}/position`,
            body: { laneId: laneAt(i), position: (i * 13) % 500 },
          }),
        },
        writes,
      ],
    ];

    const results = [];
    for (const [scenario, options] of scenarios) {
      results.push(await runLoad(client, tack, scenario, options));
    }
    const listed = await client.ok({ path: `${list}?archived=all` });
    return {
      title: "tickets",
      dataset:
        `one board, ${TICKETS} tickets seeded over the API in ${seedSeconds.toFixed(1)} s ` +
        `(${LANES.length} lanes, ${TAGS} tags, parents, blockers, related; Markdown bodies ` +
        `avg ${(bodyBytes / TICKETS / 1024).toFixed(1)} KB); concurrency ${CONCURRENCY}; ` +
        `${listed.tickets.length} tickets at the end`,
      results,
      memory: tack.memory(),
      notes: [
        `server RSS after seeding: ${seedMemory ? seedMemory.rssMiB.toFixed(1) : "n/a"} MiB`,
        "writes are capped (create 1,000, others 3,000 requests) to keep the board comparable",
      ],
    };
  } finally {
    client.close();
    await tack.stop();
  }
}
