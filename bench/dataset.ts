/**
 * The board of the idle-board measurements (`npm run bench -- idle`), generated deterministically: `tickets` tickets on 8
 * lanes with ~1 KB Markdown bodies of ordinary words, `comments` comments spread over them, 2%
 * archived, tags, parents, blockers, related links and external references. One word, RARE_WORD,
 * appears in ~3% of the tickets (144 of 5,000 in the issue's search scenario).
 */

export const RARE_WORD = "zeppelin";
const LANES = 8;
const TAGS = 12;

const WORDS = (
  "agent board cache deploy error flaky fix index latency memory migrate parser queue refactor " +
  "release retry schema search socket timeout token upload webhook worker build review client " +
  "server network render layout style import export option config report metric trace sample"
).split(" ");

/** Deterministic pseudo-random numbers (a linear congruential generator), for comparable runs. */
/** The GitHub issue a generated ticket `id` references (the bench boards' one reference kind). */
export function upstreamIssue(id: number) {
  return {
    kind: "source",
    provider: "github",
    instanceUrl: "https://github.com",
    projectKey: "acme/app",
    issueKey: String(id),
    displayRef: `acme/app#${id}`,
    url: `https://github.com/acme/app/issues/${id}`,
    title: `Upstream issue ${id}`,
  };
}

export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A Markdown body of roughly `bytes` bytes: a heading, paragraphs, a list, code, a link. */
export function markdownBody(index: number, next: () => number, bytes = 1000): string {
  const word = () => WORDS[Math.floor(next() * WORDS.length)] as string;
  const parts = [
    `## Context for ticket ${index}`,
    `- [ ] reproduce on **main**\n- [x] see #${1 + Math.floor(next() * 1000)}`,
    "```ts\n" + `const ${word()} = await ${word()}(${index});\n` + "```",
    `Logs: https://ci.example.com/runs/${index} and _more_.`,
  ];
  let length = parts.reduce((sum, part) => sum + part.length + 2, 0);
  while (length < bytes) {
    const sentence = `${Array.from({ length: 14 }, word).join(" ")}.`;
    parts.splice(1, 0, sentence);
    length += sentence.length + 2;
  }
  return parts.join("\n\n");
}

export interface BoardShape {
  tickets: number;
  comments: number;
  /** Approximate size of each ticket body in bytes (comments are a fifth of it). */
  bodyBytes?: number;
  seed?: number;
}

/** A tack.board document (docs/api.md, "Export and import") of the given shape. */
export function issueBoardDocument(shape: BoardShape) {
  return { ...issueBoardHead(shape), tickets: [...issueBoardTickets(shape)] };
}

/** The document of `issueBoardDocument` without its tickets. */
export function issueBoardHead(shape: BoardShape) {
  return {
    format: "tack.board",
    version: 1,
    board: { name: `Bench ${shape.tickets}` },
    lanes: Array.from({ length: LANES }, (_, i) => ({ id: i + 1, name: `lane ${i + 1}` })),
    tags: Array.from({ length: TAGS }, (_, i) => ({ id: i + 1, name: `tag ${i}` })),
  };
}

/**
 * The tickets of `issueBoardDocument`, one at a time: a 100,000-ticket document (202 MB of
 * JSON) is written to a file ticket by ticket (bench/huge.ts) instead of being built whole.
 */
export function* issueBoardTickets(shape: BoardShape) {
  const next = random(shape.seed ?? 11);
  const bodyBytes = shape.bodyBytes ?? 880;
  const at = (n: number) => new Date(Date.UTC(2024, 0, 1) + n * 60_000).toISOString();
  let commentId = 0;
  for (let i = 0; i < shape.tickets; i++) {
    const id = i + 1;
    let body = markdownBody(id, next, bodyBytes);
    if (i % 35 === 3) body += `\n\nSeen again near the ${RARE_WORD} hangar.`;
    const commentCount =
      Math.floor(((i + 1) * shape.comments) / shape.tickets) -
      Math.floor((i * shape.comments) / shape.tickets);
    const comments = Array.from({ length: commentCount }, (_, c) => ({
      id: ++commentId,
      bodyMarkdown: markdownBody(id * 10 + c, next, bodyBytes / 5),
      createdAt: at(i + c + 1),
    }));
    yield {
      id,
      laneId: (i % LANES) + 1,
      title: `Ticket ${id}: ${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} fails`,
      bodyMarkdown: body,
      priority: (i % 4) + 1,
      position: Math.floor(i / LANES),
      isResolved: i % 6 === 0,
      isArchived: i % 50 === 49,
      createdAt: at(i),
      updatedAt: at(i + 1),
      parentTicketId: i % 5 === 0 ? null : id - (i % 5),
      tags: [{ name: `tag ${i % TAGS}` }],
      blockerIds: i % 3 === 0 && i > 0 ? [id - 1] : [],
      relatedIds: i % 7 === 0 && i > 1 ? [id - 2] : [],
      comments,
      externalReferences: i % 4 === 0 ? [upstreamIssue(id)] : [],
    };
  }
}
