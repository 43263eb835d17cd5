/**
 * Whole-board export and import at 5,000 and 10,000 tickets (with comments, tags and reasons,
 * parents, blockers, related links, external references and events), import and export of a
 * modest 5,000-ticket board (short bodies, one comment each, some links), and the board stream's
 * fan-out: how long after a write's response the last of 100 connected clients has the message.
 */
import { type IncomingMessage, request } from "node:http";
import { performance } from "node:perf_hooks";
import {
  Client,
  cpuMs,
  type HttpResult,
  percentile,
  printTable,
  startTack,
  type TackProcess,
} from "./lib.js";

/** Each data set at its sizes; "rich" uses every exported feature, "modest" is a plainer board. */
const DATASETS = [
  { name: "", sizes: [5000, 10_000], document: (size: number) => boardDocument(size) },
  { name: " modest", sizes: [5000], document: (size: number) => modestBoardDocument(size) },
];
const IMPORT_ROUNDS = 2;
const STREAM_CLIENTS = 100;
const STREAM_ROUNDS = 40;

export async function runExportImportBench(): Promise<void> {
  const tack = await startTack();
  const client = new Client(tack.url, 8);
  try {
    console.log("\n## export / import");
    console.log(
      "per ticket: Markdown body, 2 comments, 1 tag with a reason, every 5th a parent, every " +
        "3rd a blocker, every 7th a related link, every 2nd an external reference, every 3rd an event",
    );
    console.log(
      "modest: per ticket a ~300-character body, 1 comment, 1 tag, every 10th a parent, every " +
        "4th a blocker, every 9th a related link",
    );
    const rows: (string | number)[][] = [];
    for (const dataset of DATASETS) {
      for (const size of dataset.sizes) {
        const label = `${size}${dataset.name}`;
        const document = dataset.document(size);
        const payload = JSON.stringify(document);
        let boardId = 0;
        for (let round = 0; round < IMPORT_ROUNDS; round++) {
          const measured = await measure(tack, () =>
            client.okResult({ method: "POST", path: "/api/boards/import", body: document }, 201),
          );
          boardId = measured.result.body.board.id;
          rows.push(row(`import ${label}`, round, payload.length, measured));
        }
        let exported: unknown;
        for (let round = 0; round < IMPORT_ROUNDS; round++) {
          const measured = await measure(tack, () =>
            client.okResult({ path: `/api/boards/${boardId}/export` }),
          );
          exported = measured.result.body;
          rows.push(row(`export ${label}`, round, JSON.stringify(exported).length, measured));
        }
        // The exported document itself must import again within the body limit.
        const again = await measure(tack, () =>
          client.okResult({ method: "POST", path: "/api/boards/import", body: exported }, 201),
        );
        rows.push(row(`re-import export ${label}`, 0, JSON.stringify(exported).length, again));
      }
    }
    printTable(
      [
        "operation",
        "round",
        "request/response MiB",
        "wall ms",
        "to first byte ms",
        "server CPU ms",
        "RSS before MiB",
        "peak RSS MiB",
      ],
      rows,
    );
    console.log(
      "wall = client-side time of the one request (including JSON transfer and the 201 " +
        "BoardDetail answer); to first byte = from the request going out to the answer starting " +
        "to arrive (upload + the server's work, serializing included: Fastify sends a JSON " +
        "answer once it is whole); server CPU = user+system time of the tack process meanwhile, " +
        "all its threads; RSS before = the server's RSS as the request went out; peak RSS " +
        "sampled every 20 ms during the request. RSS includes SQLite's page cache (up to " +
        "128 MiB) and the database pages it has memory-mapped (up to 256 MiB).",
    );

    await streamFanOut(tack, client);
  } finally {
    client.close();
    await tack.stop();
  }
}

interface Measured<T> {
  result: T;
  wallMs: number;
  cpuMs: number | null;
  rssBeforeMiB: number | null;
  peakRssMiB: number | null;
}

/** Times one request, with the server's CPU time and its highest RSS while it ran. */
async function measure<T>(tack: TackProcess, work: () => Promise<T>): Promise<Measured<T>> {
  const rssBeforeMiB = tack.memory()?.rssMiB ?? null;
  let peak = rssBeforeMiB;
  const sampler = setInterval(() => {
    const rss = tack.memory()?.rssMiB;
    if (rss !== undefined && (peak === null || rss > peak)) peak = rss;
  }, 20);
  const cpuBefore = cpuMs(tack.pid);
  const started = performance.now();
  const result = await work();
  const wallMs = performance.now() - started;
  const cpuAfter = cpuMs(tack.pid);
  clearInterval(sampler);
  const rss = tack.memory()?.rssMiB;
  if (rss !== undefined && (peak === null || rss > peak)) peak = rss;
  const cpu = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
  return { result, wallMs, cpuMs: cpu, rssBeforeMiB, peakRssMiB: peak };
}

function row(name: string, round: number, bytes: number, measured: Measured<HttpResult>) {
  return [
    name,
    round + 1,
    (bytes / 1024 / 1024).toFixed(1),
    measured.wallMs.toFixed(0),
    (measured.result.firstByteAt - measured.result.sentAt).toFixed(0),
    measured.cpuMs === null ? "n/a" : measured.cpuMs.toFixed(0),
    measured.rssBeforeMiB === null ? "n/a" : measured.rssBeforeMiB.toFixed(0),
    measured.peakRssMiB === null ? "n/a" : measured.peakRssMiB.toFixed(0),
  ];
}

/** A deterministic board document of `size` tickets using every exported feature. */
export function boardDocument(size: number) {
  const lanes = [1, 2, 3, 4].map((id) => ({ id, name: `Lane ${id}` }));
  const tags = Array.from({ length: 10 }, (_, i) => ({
    id: i + 1,
    name: `tag ${i}`,
    color: "#3b82f6",
  }));
  const at = (day: number) => new Date(Date.UTC(2024, 0, 1 + (day % 300))).toISOString();
  const tickets = Array.from({ length: size }, (_, i) => {
    const id = i + 1;
    return {
      id,
      laneId: (i % 4) + 1,
      title: `Ticket ${id}: investigate the flaky ${i % 2 ? "build" : "deploy"} step`,
      bodyMarkdown: `Seen on **main** since #${Math.max(1, id - 1)}.\n\n- [ ] reproduce\n- [x] collect logs (see https://ci.example.com/runs/${id})\n\n\`\`\`sh\nnpm test -- --grep ${id}\n\`\`\``,
      priority: (i % 4) + 1,
      position: Math.floor(i / 4),
      isResolved: i % 6 === 0,
      isArchived: i % 10 === 9,
      createdAt: at(i),
      updatedAt: at(i + 1),
      parentTicketId: i % 5 === 0 ? null : id - (i % 5),
      tags: [{ name: `tag ${i % 10}` }],
      blockerIds: i % 3 === 0 && i > 0 ? [id - 1] : [],
      relatedIds: i % 7 === 0 && i > 1 ? [id - 2] : [],
      comments: [
        {
          id: 2 * id,
          bodyMarkdown: `Second look: _still failing_ on run ${id}.`,
          createdAt: at(i + 2),
        },
        { id: 2 * id - 1, bodyMarkdown: `First report for ticket ${id}.`, createdAt: at(i + 1) },
      ],
      tagReasons: [
        {
          tagId: (i % 10) + 1,
          reason: "flagged by triage",
          details: { score: i % 100 },
          reasonCommentId: 2 * id - 1,
        },
      ],
      externalReferences:
        i % 2 === 0
          ? [
              {
                kind: "source",
                provider: "github",
                instanceUrl: "https://github.com",
                projectKey: "acme/app",
                issueKey: String(id),
                displayRef: `acme/app#${id}`,
                url: `https://github.com/acme/app/issues/${id}`,
                title: `Upstream issue ${id}`,
              },
            ]
          : [],
      events:
        i % 3 === 0
          ? [
              {
                source: "ci",
                kind: "build",
                title: "Build failed",
                severity: "error",
                data: { run: id },
              },
            ]
          : [],
    };
  });
  return {
    format: "tack.board",
    version: 1,
    board: { name: `Bench ${size}` },
    lanes,
    tags,
    tickets,
  };
}

/**
 * A plainer board of `size` tickets: a ~300-character Markdown body, one comment and one tag per
 * ticket, every 10th a child, every 4th blocked by the ticket before it, every 9th related to the
 * one two before it. Bodies differ per ticket, so no rendering is saved by repeats.
 */
export function modestBoardDocument(size: number) {
  const lanes = [1, 2, 3, 4].map((id) => ({ id, name: `Lane ${id}` }));
  const tags = Array.from({ length: 5 }, (_, i) => ({ id: i + 1, name: `tag ${i}` }));
  const at = (day: number) => new Date(Date.UTC(2024, 0, 1 + (day % 300))).toISOString();
  const tickets = Array.from({ length: size }, (_, i) => {
    const id = i + 1;
    return {
      id,
      laneId: (i % 4) + 1,
      title: `Ticket ${id}: export stops early for account ${1000 + id}`,
      bodyMarkdown:
        `Customer ${1000 + id} reports that the monthly export stops at **page ${i % 40}**. ` +
        "Steps: open the report, pick last month, press _Export_. Expected a complete file, got " +
        "a truncated one, in Firefox and Chrome since the last release. Nothing in the logs; " +
        `similar to #${Math.max(1, id - 1)}; case notes at ` +
        `https://support.example.com/cases/${id}.`,
      priority: (i % 4) + 1,
      position: Math.floor(i / 4),
      isResolved: i % 6 === 0,
      createdAt: at(i),
      updatedAt: at(i + 1),
      parentTicketId: i % 10 === 0 || i < 10 ? null : id - (i % 10),
      tags: [{ name: `tag ${i % 5}` }],
      blockerIds: i % 4 === 0 && i > 0 ? [id - 1] : [],
      relatedIds: i % 9 === 0 && i > 1 ? [id - 2] : [],
      comments: [
        { id, bodyMarkdown: `Reproduced on staging for ticket ${id}.`, createdAt: at(i + 2) },
      ],
    };
  });
  return { board: { name: `Modest ${size}` }, lanes, tags, tickets };
}

/**
 * 100 clients on one board's stream; each round makes one write and records when the last client
 * has its message, relative to the write's response (the commit is announced before the response
 * is sent, so this can be negative) and to the moment the request was sent.
 */
async function streamFanOut(tack: TackProcess, client: Client): Promise<void> {
  const board = await client.ok(
    { method: "POST", path: "/api/boards", body: { name: "stream" } },
    201,
  );
  const boardId = board.board.id as number;
  const listeners = await Promise.all(
    Array.from({ length: STREAM_CLIENTS }, () =>
      listen(`${tack.url}/api/boards/${boardId}/events`),
    ),
  );
  const fromResponse: number[] = [];
  const fromRequest: number[] = [];
  try {
    for (let round = 0; round < STREAM_ROUNDS + 5; round++) {
      const arrivals = listeners.map((listener) => listener.next());
      const sent = performance.now();
      await client.ok({
        method: "PATCH",
        path: `/api/boards/${boardId}`,
        body: { name: `stream ${round}` },
      });
      const answered = performance.now();
      const last = Math.max(...(await Promise.all(arrivals)));
      if (round < 5) continue; // warm-up
      fromResponse.push(last - answered);
      fromRequest.push(last - sent);
    }
  } finally {
    for (const listener of listeners) listener.close();
  }
  fromResponse.sort((a, b) => a - b);
  fromRequest.sort((a, b) => a - b);
  console.log(`\n## board stream fan-out (${STREAM_CLIENTS} clients, ${STREAM_ROUNDS} writes)`);
  printTable(
    ["last client has the message", "p50 ms", "p99 ms", "max ms"],
    [
      ["after the write's response", ...stats(fromResponse)],
      ["after the write was sent", ...stats(fromRequest)],
    ],
  );
  console.log(
    `server memory with ${STREAM_CLIENTS} open streams: RSS ${tack.memory()?.rssMiB.toFixed(1) ?? "n/a"} MiB`,
  );
}

const stats = (sorted: number[]) => [
  percentile(sorted, 50).toFixed(2),
  percentile(sorted, 99).toFixed(2),
  (sorted.at(-1) ?? 0).toFixed(2),
];

interface Listener {
  /** Resolves with the arrival time (performance.now()) of the next data message. */
  next(): Promise<number>;
  close(): void;
}

/** An SSE connection that reports when each `data:` message arrives. */
function listen(url: string): Promise<Listener> {
  return new Promise((resolve, reject) => {
    const waiting: Array<(at: number) => void> = [];
    const req = request(url, (response: IncomingMessage) => {
      if (response.statusCode !== 200) {
        reject(new Error(`stream answered ${response.statusCode}`));
        return;
      }
      response.setEncoding("utf8");
      let buffer = "";
      response.on("data", (chunk: string) => {
        const at = performance.now();
        buffer += chunk;
        let end = buffer.indexOf("\n\n");
        while (end !== -1) {
          if (buffer.slice(0, end).includes("\ndata:") || buffer.startsWith("data:")) {
            waiting.shift()?.(at);
          }
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf("\n\n");
        }
      });
      resolve({
        next: () => new Promise((done) => waiting.push(done)),
        close: () => req.destroy(),
      });
    });
    req.on("error", reject);
    req.end();
  });
}
