/**
 * A board import document holding every kind of content an export carries, made the same way
 * every time (no randomness, every timestamp given): test/api/export-stream.test.ts imports it
 * and compares the export with the bytes kept in test/fixtures/export-golden.json.gz.
 *
 * Its 460 tickets fill lane "a" well past the export's page of tickets
 * (`EXPORT_PAGE_TICKETS`, domain/transfer/board-export.ts), archived ones among them, so pages
 * end inside a lane, between its active and archived tickets and at lane ends; parents, blockers
 * and related tickets sit on other pages than the tickets naming them.
 */
export const EXPORT_DOCUMENT_TICKETS = 460;

const BASE = Date.parse("2026-03-01T08:00:00.000Z");
const at = (minutes: number) => new Date(BASE + minutes * 60_000).toISOString();

const LANES = [
  { id: 11, name: "b" },
  { id: 10, name: "a", wipLimit: 500 },
  { id: 12, name: "c" },
];
const TAGS = [
  { id: 1, name: "Bug", color: "#f00" },
  { id: 2, name: "ops", color: "#12abEF" },
  { id: 3, name: "idea", color: "" },
];

/** The lane of ticket `i`, and its index there: lane a holds all but the last 30. */
function placeOf(i: number): { laneId: number; index: number } {
  if (i < 430) return { laneId: 10, index: i };
  if (i < 450) return { laneId: 11, index: i - 430 };
  return { laneId: 12, index: i - 450 };
}

const ticketId = (i: number) => 5000 + i;

function bodyOf(i: number): string {
  switch (i % 6) {
    case 0:
      return "";
    case 1:
      return `**Step ${i}**\n\n- [ ] one\n- [x] two\n\n| a | b |\n|--:|:-:|\n| ${i} | "q" |`;
    case 2:
      return `Raw <b onclick="x()">html</b> and <script>bad()</script> in ${i}`;
    case 3:
      return `\`\`\`ts\nconst a = "${i}\\n";\n\`\`\`\n\nSee https://example.com/${i} and ~~old~~.`;
    case 4:
      return `# Heading ${i}\n\nUnicode ✓ título — 日本語 \u2028 line\ttab "quoted" \\ back`;
    default:
      return `plain ${i}`;
  }
}

function commentsOf(i: number) {
  const count = i % 4;
  const comments = [];
  // Newest first; in every tenth ticket two comments share their time.
  for (let k = count - 1; k >= 0; k--) {
    const minutes = i * 3 + (i % 10 === 3 ? Math.min(k, 1) : k) + 1;
    comments.push({
      id: 100_000 + i * 4 + k,
      ticketId: ticketId(i),
      bodyMarkdown: k === 0 ? `first on ${i}` : `reply ${k} with [link](https://x.test/${i})`,
      createdAt: at(minutes),
    });
  }
  return comments;
}

function eventsOf(i: number) {
  if (i % 5 !== 2) return [];
  const same = i % 10 === 7;
  return [
    {
      source: "ci",
      kind: "build",
      title: `Green ${i}`,
      summary: null,
      severity: "info",
      icon: null,
      data: {},
      createdAt: at(i * 3 + 2),
    },
    {
      source: "agent",
      kind: "review",
      title: "Reviewed",
      summary: `${i % 3} findings`,
      severity: "warning",
      icon: "🔎",
      data: { findings: [{ line: i, text: 'nit "x"' }], ok: i % 2 === 0 },
      createdAt: at(i * 3 + (same ? 2 : 1)),
    },
  ];
}

function referencesOf(i: number) {
  const references = [];
  if (i % 15 === 0) {
    references.push({
      kind: "source",
      provider: "github",
      instanceUrl: "https://github.com",
      resourceType: "issue",
      projectKey: "acme/app",
      issueKey: String(i),
      displayRef: `acme/app#${i}`,
      url: `https://github.com/acme/app/issues/${i}`,
      title: `Crash ${i}`,
      createdAt: at(i),
      updatedAt: at(i + 1),
    });
  }
  if (i % 30 === 0) {
    references.push({
      kind: "doc",
      provider: "wiki",
      instanceUrl: "",
      resourceType: "page",
      projectKey: "",
      issueKey: "",
      displayRef: "Design",
      url: `https://wiki.example.com/design/${i}`,
      title: null,
      createdAt: at(i),
      updatedAt: at(i),
    });
  }
  return references;
}

function asksOf(i: number) {
  if (i % 20 !== 1) return [];
  const asks: unknown[] = [
    {
      actor: "agent",
      question: `Which **db** for ${i}?`,
      options: ["Postgres", "SQLite"],
      blocking: true,
      status: "answered",
      answer: { by: "dev", option: "SQLite", text: "*small*" },
      createdAt: at(i),
      answeredAt: at(i + 5),
    },
    { actor: "agent", question: "  Open one  ", createdAt: at(i + 6) },
  ];
  if (i % 40 === 1) {
    asks.push({
      actor: "bot",
      question: "Still needed?",
      blocking: false,
      status: "withdrawn",
      createdAt: at(i + 7),
      answeredAt: at(i + 8),
    });
  }
  return asks;
}

function ticketOf(i: number) {
  const { laneId, index } = placeOf(i);
  const comments = commentsOf(i);
  const tags = [
    ...(i % 3 === 0 ? [{ name: "Bug" }] : []),
    ...(i % 4 === 1 ? [{ name: "ops" }, { name: "idea" }] : []),
  ];
  const tagReasons =
    i % 6 === 0
      ? [
          {
            tagId: 1,
            reason: `seen in CI ${i}`,
            details: i % 12 === 0 ? { runs: [i, i + 1], source: "ci" } : null,
            reasonCommentId: comments.at(-1)?.id ?? null,
            attachedAt: at(i + 2),
            updatedAt: at(i + 3),
          },
        ]
      : [];
  // Parents are the tickets i % 13 === 0 (none of which has a parent), some later than the child.
  const parent = i % 13 === 5 ? Math.floor(((i * 7) % EXPORT_DOCUMENT_TICKETS) / 13) * 13 : null;
  const blockers =
    i % 8 === 2 ? [i - 1, i - 150].filter((b) => b >= 0).map((b) => ticketId(b)) : [];
  const related = i % 12 === 7 && i + 3 < EXPORT_DOCUMENT_TICKETS ? [ticketId(i + 3)] : [];
  return {
    id: ticketId(i),
    laneId,
    parentTicketId: parent === null ? null : ticketId(parent),
    title: i % 17 === 0 ? `Ticket ${i} "quoted" \\ ✓` : `Ticket ${i}`,
    bodyMarkdown: bodyOf(i),
    isResolved: i % 7 === 0,
    isArchived: laneId === 10 && i % 9 === 0,
    priority: 1 + (i % 4),
    position: index * 2,
    createdAt: at(i),
    updatedAt: at(i + (i % 5)),
    notBefore: i % 11 === 0 ? `2027-01-0${1 + (i % 9)}T10:00:00+02:00` : null,
    tags,
    comments,
    blockerIds: blockers,
    relatedIds: related,
    externalReferences: referencesOf(i),
    tagReasons,
    events: eventsOf(i),
    asks: asksOf(i),
  };
}

/** The document: three lanes (not in id order), three tags, the tickets and two templates. */
export function exportTestDocument() {
  return {
    format: "tack.board",
    version: 1,
    board: { name: "Golden board" },
    lanes: LANES,
    tags: TAGS,
    tickets: Array.from({ length: EXPORT_DOCUMENT_TICKETS }, (_, i) => ticketOf(i)),
    templates: ["release", "Bug triage"].map((name, n) => ({
      name,
      description: "How we **{{do}}** it",
      tickets: [
        { key: "check", title: "Check {{version}}", tagNames: ["Bug", "new tag"] },
        {
          key: "ship",
          title: "Ship",
          bodyMarkdown: "Body of {{version}}",
          laneName: "c",
          priority: 4,
          parentKey: "check",
          blockerKeys: ["check"],
        },
      ],
      createdAt: at(n),
      updatedAt: at(n + 1),
    })),
  };
}
