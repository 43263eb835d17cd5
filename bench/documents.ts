/**
 * The two board documents of `npm run bench -- transfer`, generated deterministically: a "rich"
 * one using every exported feature (comments, tags with reasons, parents, blockers, related
 * links, external references, events) and a "modest" one (short bodies, one comment each, some
 * links). bench/dataset.ts's `issueBoardDocument` is the board of the other benchmarks.
 */
import { upstreamIssue } from "./dataset.js";

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
      externalReferences: i % 2 === 0 ? [upstreamIssue(id)] : [],
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
