import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { searchTextOf } from "../../src/domain/search-text.js";
import { assertError, createTag } from "../helpers/factories.js";
import { countReads } from "../helpers/query-count.js";
import { startTestServer } from "../helpers/server.js";
import {
  boardWithLanes,
  idsOf,
  layout,
  listTickets,
  newTicket,
  patchTicket,
} from "../helpers/tickets.js";

const api = await startTestServer();

const SUMMARY_FIELDS = [
  // docs/api.md, "Coordination for agents"
  "version",
  "claim",
  // docs/api.md, "Not before", "Asks", "Checklists"
  "notBefore",
  "openAsks",
  "checklist",
  "id",
  "boardId",
  "laneId",
  "parentTicketId",
  "hasChildren",
  "title",
  "isResolved",
  "isCompleted",
  "isArchived",
  "priority",
  "position",
  "createdAt",
  "updatedAt",
  "tags",
  "blockerIds",
  "relatedIds",
  "ref",
  "shortRef",
  "remote",
  "externalReferences",
].sort();

const list = (boardId: number, query = "") => listTickets(api, boardId, query);
const search = async (boardId: number, q: string, extra = "") =>
  idsOf(await list(boardId, `q=${encodeURIComponent(q)}${extra}`));

/** Sets an external reference through its endpoint (PUT .../external-references/{kind}). */
async function addExternalReference(
  ticketId: number,
  fields: {
    kind: string;
    provider: string;
    projectKey: string;
    issueKey: string;
    displayRef: string;
    url: string;
    title?: string;
  },
) {
  const { kind, ...body } = fields;
  const response = await api.put(`/api/tickets/${ticketId}/external-references/${kind}`, {
    instanceUrl: "https://example.test",
    ...body,
  });
  assert.equal(response.status, 200, response.text);
}

// Tracked links come from remote import (which needs a provider); this writes the row the way
// that module does, with its folded search_text.
function addRemoteLink(
  ticketId: number,
  fields: {
    provider: string;
    projectKey: string;
    issueKey: string;
    displayRef: string;
    url: string;
    title: string;
  },
) {
  const { provider, projectKey, issueKey, displayRef, url, title } = fields;
  api.server.db
    .prepare(
      `INSERT INTO remote_links (ticket_id, provider, instance_url, project_key, issue_key,
         display_ref, url, title, body_markdown, body_html, search_text, last_synced_at,
         created_at, updated_at)
       VALUES (?, ?, 'https://example.test', ?, ?, ?, ?, ?, '', '', ?, '2024-01-01T00:00:00.000Z',
         '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z')`,
    )
    .run(
      ticketId,
      provider,
      projectKey,
      issueKey,
      displayRef,
      url,
      title,
      searchTextOf(provider, projectKey, issueKey, displayRef, url, title),
    );
}

describe("GET /api/boards/{boardId}/tickets", () => {
  test("answers {tickets: TicketSummary[]} with exactly the summary fields", async () => {
    const board = await boardWithLanes(api, "Summaries");
    const tag = await createTag(api, board.boardId, "t");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "t", {
      bodyMarkdown: "body",
      tagIds: [tag.id],
    });
    const response = await api.get(`/api/boards/${board.boardId}/tickets`);
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body), ["tickets"]);
    const [summary] = response.body.tickets;
    assert.deepEqual(Object.keys(summary).sort(), SUMMARY_FIELDS);
    for (const field of SUMMARY_FIELDS) {
      if (field !== "remote") assert.deepEqual(summary[field], ticket[field], field);
    }
    assert.equal(summary.remote, null);
  });

  test("orders by lane position, active before archived, position, then id", async () => {
    const board = await boardWithLanes(api, "Ordering", ["a", "b"]);
    const [a = 0, b = 0] = board.laneIds;
    const b1 = await newTicket(api, board.boardId, b, "b1");
    const a1 = await newTicket(api, board.boardId, a, "a1");
    const a2 = await newTicket(api, board.boardId, a, "a2");
    const a3 = await newTicket(api, board.boardId, a, "a3");
    await patchTicket(api, a1.id, { isArchived: true });
    assert.deepEqual(layout(await list(board.boardId, "archived=all")), [
      [a, 0, a2.id],
      [a, 1, a3.id],
      [a, 2, a1.id],
      [b, 0, b1.id],
    ]);
    const reordered = await api.post(`/api/boards/${board.boardId}/lanes/reorder`, {
      laneIds: [b, a],
    });
    assert.equal(reordered.status, 200);
    assert.deepEqual(idsOf(await list(board.boardId, "archived=all")), [
      b1.id,
      a2.id,
      a3.id,
      a1.id,
    ]);
  });

  test("archived: hidden by default, true = only archived, all = both", async () => {
    const board = await boardWithLanes(api, "Archive filter");
    const active = await newTicket(api, board.boardId, board.laneIds[0], "active");
    const archived = await newTicket(api, board.boardId, board.laneIds[0], "archived", {
      isArchived: true,
    });
    assert.deepEqual(idsOf(await list(board.boardId)), [active.id]);
    assert.deepEqual(idsOf(await list(board.boardId, "archived=false")), [active.id]);
    assert.deepEqual(idsOf(await list(board.boardId, "archived=true")), [archived.id]);
    assert.deepEqual(idsOf(await list(board.boardId, "archived=all")), [active.id, archived.id]);
    assertError(
      await api.get(`/api/boards/${board.boardId}/tickets?archived=yes`),
      400,
      /archived/,
    );
  });

  test("lane_id, tag (case-insensitive), resolved and completed filter and combine by AND", async () => {
    const board = await boardWithLanes(api, "Filters");
    const bug = await createTag(api, board.boardId, "Bug");
    const todo = board.lane("todo");
    const done = board.lane("done");
    const t1 = await newTicket(api, board.boardId, todo, "t1", { tagIds: [bug.id] });
    const t2 = await newTicket(api, board.boardId, todo, "t2", { isResolved: true });
    const t3 = await newTicket(api, board.boardId, done, "t3", {
      tagIds: [bug.id],
      isResolved: true,
    });
    assert.deepEqual(idsOf(await list(board.boardId, `lane_id=${todo}`)), [t1.id, t2.id]);
    assert.deepEqual(idsOf(await list(board.boardId, "tag=bUG")), [t1.id, t3.id]);
    assert.deepEqual(idsOf(await list(board.boardId, "tag=%20bug%20")), [t1.id, t3.id]);
    assert.deepEqual(idsOf(await list(board.boardId, "tag=nope")), []);
    assert.deepEqual(idsOf(await list(board.boardId, "resolved=true")), [t2.id, t3.id]);
    assert.deepEqual(idsOf(await list(board.boardId, "resolved=false")), [t1.id]);
    assert.deepEqual(idsOf(await list(board.boardId, "completed=true")), [t2.id, t3.id]);
    assert.deepEqual(idsOf(await list(board.boardId, "resolved=false&completed=true")), [t1.id]);
    assert.deepEqual(idsOf(await list(board.boardId, "resolved=true&completed=false")), [
      t2.id,
      t3.id,
    ]);
    assert.deepEqual(idsOf(await list(board.boardId, `tag=bug&resolved=true`)), [t3.id]);
    assert.deepEqual(idsOf(await list(board.boardId, `tag=bug&lane_id=${todo}`)), [t1.id]);
    assert.deepEqual(idsOf(await list(board.boardId, `tag=bug&lane_id=${todo}&resolved=true`)), []);
    assert.deepEqual(idsOf(await list(board.boardId, `q=t&lane_id=${done}`)), [t3.id]);
  });

  test("rejects malformed query values with 400 and unknown boards with 404", async () => {
    const board = await boardWithLanes(api, "Bad query");
    const path = `/api/boards/${board.boardId}/tickets`;
    for (const query of [
      "lane_id=abc",
      "lane_id=0",
      "lane_id=1.5",
      "resolved=yes",
      "resolved=1",
      "completed=maybe",
      "archived=TRUE",
    ]) {
      assertError(await api.get(`${path}?${query}`), 400);
    }
    assertError(await api.get("/api/boards/999999/tickets"), 404, "board not found");
    assertError(await api.get("/api/boards/x/tickets"), 400);
  });
});

describe("search (q)", () => {
  test("plain text matches title and body, case-insensitively (Unicode) and literally", async () => {
    const board = await boardWithLanes(api, "Text search");
    const laneId = board.laneIds[0];
    const a = await newTicket(api, board.boardId, laneId, "Straße ÄRGER", {
      bodyMarkdown: "plain",
    });
    const b = await newTicket(api, board.boardId, laneId, "other", {
      bodyMarkdown: "Über 100% sure_thing",
    });
    const c = await newTicket(api, board.boardId, laneId, "third", {
      bodyMarkdown: "100 percent surething",
    });
    assert.deepEqual(await search(board.boardId, "ärger"), [a.id]);
    assert.deepEqual(await search(board.boardId, "STRASSE"), []);
    assert.deepEqual(await search(board.boardId, "straße"), [a.id]);
    assert.deepEqual(await search(board.boardId, "über"), [b.id]);
    assert.deepEqual(await search(board.boardId, "100%"), [b.id]);
    assert.deepEqual(await search(board.boardId, "sure_thing"), [b.id]);
    assert.deepEqual(await search(board.boardId, "*"), []);
    assert.deepEqual(await search(board.boardId, "  PLAIN  "), [a.id]);
    assert.deepEqual(await search(board.boardId, "   "), [a.id, b.id, c.id]);
    assert.deepEqual(idsOf(await list(board.boardId, "q=")), [a.id, b.id, c.id]);
  });

  test("plain text matches the id and #id", async () => {
    const board = await boardWithLanes(api, "Id search");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "nothing");
    const digits = String(ticket.id);
    assert.ok((await search(board.boardId, digits)).includes(ticket.id));
    assert.ok((await search(board.boardId, digits.slice(-1))).includes(ticket.id));
    assert.deepEqual(await search(board.boardId, "#"), [ticket.id]);
  });

  test("#<n> finds ticket n and tickets mentioning #<n>", async () => {
    const board = await boardWithLanes(api, "Hash search");
    const laneId = board.laneIds[0];
    const target = await newTicket(api, board.boardId, laneId, "target");
    const mention = await newTicket(api, board.boardId, laneId, "mentions", {
      bodyMarkdown: `see #${target.id} for details`,
    });
    await newTicket(api, board.boardId, laneId, `id ${target.id} without hash`);
    assert.deepEqual(await search(board.boardId, `#${target.id}`), [target.id, mention.id]);
    assert.deepEqual(await search(board.boardId, "#99999999999999999999"), []);
    // Tickets of other boards are never found.
    const other = await boardWithLanes(api, "Hash elsewhere");
    assert.deepEqual(await search(other.boardId, `#${target.id}`), []);
  });

  test("archived tickets are searched only when archived=true|all", async () => {
    const board = await boardWithLanes(api, "Search archived");
    const ticket = await newTicket(api, board.boardId, board.laneIds[0], "needle", {
      isArchived: true,
    });
    assert.deepEqual(await search(board.boardId, "needle"), []);
    assert.deepEqual(await search(board.boardId, "needle", "&archived=all"), [ticket.id]);
    assert.deepEqual(await search(board.boardId, `#${ticket.id}`, "&archived=true"), [ticket.id]);
  });

  test("plain text matches tracked-link and external-reference fields", async () => {
    const board = await boardWithLanes(api, "Reference text");
    const laneId = board.laneIds[0];
    const tracked = await newTicket(api, board.boardId, laneId, "tracked");
    const referenced = await newTicket(api, board.boardId, laneId, "referenced");
    await newTicket(api, board.boardId, laneId, "bystander");
    addRemoteLink(tracked.id, {
      provider: "github",
      projectKey: "Octo/Widgets",
      issueKey: "77",
      displayRef: "Octo/Widgets#77",
      url: "https://github.com/Octo/Widgets/issues/77",
      title: "Crash on Resize",
    });
    await addExternalReference(referenced.id, {
      kind: "spec",
      provider: "redmine",
      projectKey: "Platform",
      issueKey: "4242",
      displayRef: "Platform #4242",
      url: "https://redmine.example.test/issues/4242",
      title: "Quarterly Plan",
    });
    assert.deepEqual(await search(board.boardId, "octo/widgets#77"), [tracked.id]);
    assert.deepEqual(await search(board.boardId, "crash on resize"), [tracked.id]);
    assert.deepEqual(await search(board.boardId, "quarterly"), [referenced.id]);
    assert.deepEqual(await search(board.boardId, "4242"), [referenced.id]);
    assert.deepEqual(await search(board.boardId, "SPEC"), [referenced.id]);
    assert.deepEqual(await search(board.boardId, "redmine.example"), [referenced.id]);
    const [summary] = await list(board.boardId, `q=${encodeURIComponent("crash on resize")}`);
    assert.deepEqual(summary.remote, {
      provider: "github",
      displayRef: "Octo/Widgets#77",
      url: "https://github.com/Octo/Widgets/issues/77",
    });
    const [withReference] = await list(board.boardId, "q=quarterly");
    assert.equal(withReference.externalReferences[0].displayRef, "Platform #4242");
  });

  test("provider prefixes match issue keys of that provider; ext and remote pick the source", async () => {
    const board = await boardWithLanes(api, "Prefixes");
    const laneId = board.laneIds[0];
    const ghTracked = await newTicket(api, board.boardId, laneId, "gh tracked");
    const ghReferenced = await newTicket(api, board.boardId, laneId, "gh referenced");
    const glTracked = await newTicket(api, board.boardId, laneId, "gl tracked");
    const rmReferenced = await newTicket(api, board.boardId, laneId, "rm referenced");
    const mention = await newTicket(api, board.boardId, laneId, "mention", {
      bodyMarkdown: "duplicate of GH#12",
    });
    await newTicket(api, board.boardId, laneId, "other key", { bodyMarkdown: "issue 12" });
    const link = (provider: string, issueKey: string) => ({
      provider,
      projectKey: "group/project",
      issueKey,
      displayRef: `group/project#${issueKey}`,
      url: `https://${provider}.example.test/group/project/issues/${issueKey}`,
      title: "remote title",
    });
    addRemoteLink(ghTracked.id, link("github", "12"));
    await addExternalReference(ghReferenced.id, { kind: "source", ...link("github", "12") });
    addRemoteLink(glTracked.id, link("gitlab", "12"));
    await addExternalReference(rmReferenced.id, { kind: "doc", ...link("redmine", "12") });

    // Plus substring hits of the whole query on title and body ("GH#12" in a body).
    assert.deepEqual(await search(board.boardId, "gh#12"), [
      ghTracked.id,
      ghReferenced.id,
      mention.id,
    ]);
    assert.deepEqual(await search(board.boardId, "GitHub#12"), [ghTracked.id, ghReferenced.id]);
    assert.deepEqual(await search(board.boardId, "gl#12"), [glTracked.id]);
    assert.deepEqual(await search(board.boardId, "gitlab#12"), [glTracked.id]);
    assert.deepEqual(await search(board.boardId, "rm#12"), [rmReferenced.id]);
    assert.deepEqual(await search(board.boardId, "Redmine#12"), [rmReferenced.id]);
    assert.deepEqual(await search(board.boardId, "ext#12"), [ghReferenced.id, rmReferenced.id]);
    assert.deepEqual(await search(board.boardId, "external#12"), [
      ghReferenced.id,
      rmReferenced.id,
    ]);
    assert.deepEqual(await search(board.boardId, "remote#12"), [ghTracked.id, glTracked.id]);
    // Keys must be equal (not substrings); the body hit is the substring rule for title/body.
    assert.deepEqual(await search(board.boardId, "gh#1"), [mention.id]);
    // An unknown prefix is plain text.
    assert.deepEqual(await search(board.boardId, "xx#12"), []);
    // Combined with other filters by AND.
    await patchTicket(api, ghReferenced.id, { isResolved: true });
    assert.deepEqual(await search(board.boardId, "gh#12", "&resolved=true"), [ghReferenced.id]);
  });
});

describe("list cost", () => {
  test("uses the same number of queries for 5 and 60 tickets", async () => {
    const small = await boardWithLanes(api, "Small board");
    const large = await boardWithLanes(api, "Large board");
    for (const board of [small, large]) {
      const tag = await createTag(api, board.boardId, "tag");
      const count = board === small ? 5 : 60;
      let previous: number | undefined;
      for (let index = 0; index < count; index++) {
        const ticket = await newTicket(
          api,
          board.boardId,
          board.laneIds[index % 3] ?? 0,
          `t${index}`,
          {
            tagIds: [tag.id],
            blockerIds: previous === undefined ? [] : [previous],
            relatedIds: previous === undefined ? [] : [previous],
            parentTicketId: index > 0 && index % 2 === 0 ? previous : undefined,
          },
        );
        previous = ticket.id;
      }
    }
    const queriesFor = (boardId: number, query: string) =>
      countReads(api.server.db, () => list(boardId, query));
    for (const query of ["", "archived=all", "q=t1", "q=%231", "q=gh%231&tag=tag"]) {
      assert.equal(
        await queriesFor(large.boardId, query),
        await queriesFor(small.boardId, query),
        query,
      );
    }
  });
});
