/**
 * `npm run bench -- boards`: board, lane and tag endpoints under load, on a fresh server with 50
 * boards: the reads a UI makes on every refresh, and the small writes (each one SQLite
 * transaction) that follow user actions. Throughput, latency percentiles, server CPU and RSS.
 */
import { Client, inParallel, startTack } from "./lib.js";
import { type LoadOptions, runLoad, type Scenario } from "./load-loop.js";
import { type BenchReport, printReport, scenarioDurationMs } from "./report.js";

const BOARDS = 50;
const LANES_PER_BOARD = 4;
const TAGS_PER_BOARD = 10;

export async function runBoardBench(): Promise<BenchReport> {
  const tack = await startTack();
  const client = new Client(tack.url);
  try {
    const boardIds: number[] = [];
    await inParallel(BOARDS, 8, async (index) => {
      const detail = await client.ok(
        {
          method: "POST",
          path: "/api/boards",
          body: {
            name: `Board ${index}`,
            laneNames: Array.from({ length: LANES_PER_BOARD }, (_, lane) => `Lane ${lane}`),
          },
        },
        201,
      );
      boardIds.push(detail.board.id);
      for (let tag = 0; tag < TAGS_PER_BOARD; tag++) {
        await client.ok(
          {
            method: "POST",
            path: `/api/boards/${detail.board.id}/tags`,
            body: { name: `tag ${tag}` },
          },
          201,
        );
      }
    });
    const boardAt = (i: number) => boardIds[i % boardIds.length] as number;

    const reads: LoadOptions = { concurrency: 16, durationMs: scenarioDurationMs() };
    // Writes are capped so the database stays comparable in size between runs.
    const writes: LoadOptions = { ...reads, concurrency: 8, maxRequests: 20_000 };

    const scenarios: [Scenario, LoadOptions][] = [
      [{ name: "GET /api/boards", request: () => ({ path: "/api/boards" }) }, reads],
      [
        { name: "GET /api/boards/{id}", request: (i) => ({ path: `/api/boards/${boardAt(i)}` }) },
        reads,
      ],
      [
        {
          name: "GET /api/boards/{id}/tags",
          request: (i) => ({ path: `/api/boards/${boardAt(i)}/tags` }),
        },
        reads,
      ],
      [
        {
          name: "PATCH /api/boards/{id}",
          request: (i) => ({
            method: "PATCH",
            path: `/api/boards/${boardAt(i)}`,
            body: { name: `Board ${i % BOARDS} renamed ${i}` },
          }),
        },
        writes,
      ],
      [
        {
          name: "POST /api/boards/{id}/tags",
          request: (i) => ({
            method: "POST",
            path: `/api/boards/${boardAt(i)}/tags`,
            body: { name: `bench tag ${i}`, color: "#336699" },
          }),
        },
        writes,
      ],
      [
        {
          name: "POST /api/boards",
          request: (i) => ({
            method: "POST",
            path: "/api/boards",
            body: { name: `Created ${i}`, laneNames: ["todo", "doing", "done"] },
          }),
        },
        // Every new board lengthens GET /api/boards, so this one runs last and short.
        { ...writes, maxRequests: 2_000 },
      ],
    ];

    const results = [];
    for (const [scenario, options] of scenarios) {
      results.push(await runLoad(client, tack, scenario, options));
    }
    return {
      title: "boards, lanes, tags",
      dataset: `seeded ${BOARDS} boards x ${LANES_PER_BOARD} lanes x ${TAGS_PER_BOARD} tags; reads at concurrency ${reads.concurrency}, writes at ${writes.concurrency}`,
      results,
      memory: tack.memory(),
    };
  } finally {
    client.close();
    await tack.stop();
  }
}

runBoardBench().then(printReport, (error: unknown) => {
  console.error(
    `bench boards: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exit(1);
});
