/**
 * Flow histories (docs/api.md, "Insights"): insights read every flow entry of thousands
 * of tickets on each request, and pulling the detail fields out of each entry's JSON and parsing
 * its date-time text cost most of that request. `flow_histories` keeps, per ticket (its subject id:
 * activity outlives its ticket), those entries already reduced to numbers, one JSON array per
 * entry, joined by commas in the order they were written:
 *
 *   [at, activityId, kind, flag, actor, laneFrom, laneTo, boardFrom, boardTo]
 *
 * with the fields a kind does not carry left off the end (a creation is [at, activityId, kind]),
 * since the fewer characters one request parses, the less it costs.
 *
 * `at` is the entry's `created_at` in epoch milliseconds; `kind` the action's index in
 * FLOW_KINDS; `laneFrom`/`laneTo` and `boardFrom`/`boardTo` the move of a transition or board
 * move; `flag` the value after the change of `isResolved` (updates, resolutions, reopenings) or
 * `isArchived` (archive, restore), and for a release 1 when it ended because of the resolution;
 * `actor` the actor of a claim or release; null (or left off the end) where the kind carries
 * nothing.
 *
 * Triggers on `activity` keep it right whatever writes the entries (a one-row insert, an import's
 * bulk insert, a board restored from the trash): an insert appends, and a delete or an update of
 * an entry's content rebuilds that ticket's row from the entries left. Only the entries of
 * FLOW_KINDS are kept, and of `ticket_updated` only those that changed `isResolved`.
 * storage/flow-history.ts reads it; the backfill below fills it for an existing database.
 */

/** The actions a flow history keeps, by the `kind` code they are stored with (never reorder). */
export const FLOW_KINDS = [
  "ticket_created",
  "ticket_updated",
  "ticket_resolved",
  "ticket_reopened",
  "ticket_transitioned",
  "ticket_archived",
  "ticket_restored",
  "ticket_moved_board",
  "ticket_claimed",
  "ticket_released",
] as const;

const quoted = (actions: readonly string[]) => actions.map((action) => `'${action}'`).join(", ");

/** Whether activity row `a` belongs in a flow history. */
export const isFlowEntry = (a: string) =>
  `(${a}.action IN (${quoted(FLOW_KINDS)}) AND (${a}.action <> 'ticket_updated'
    OR json_extract(${a}.details_json, '$.after.isResolved') IS NOT NULL))`;

/** The JSON array of activity row `a` (the layout described above). */
export const entryOf = (a: string) => {
  const field = (path: string) => `json_extract(${a}.details_json, '${path}')`;
  const at = `CAST(round(unixepoch(${a}.created_at, 'subsec') * 1000) AS INTEGER)`;
  const entry = (action: (typeof FLOW_KINDS)[number], ...rest: string[]) =>
    `WHEN '${action}' THEN json_array(${[at, `${a}.id`, FLOW_KINDS.indexOf(action), ...rest].join(", ")})`;
  const resolved = field("$.after.isResolved");
  const archived = field("$.after.isArchived");
  const actor = field("$.actor");
  const lanes = [field("$.fromLaneId"), field("$.toLaneId")];
  return `CASE ${a}.action
    ${entry("ticket_created")}
    ${entry("ticket_updated", resolved)}
    ${entry("ticket_resolved", resolved)}
    ${entry("ticket_reopened", resolved)}
    ${entry("ticket_transitioned", "NULL", "NULL", ...lanes)}
    ${entry("ticket_archived", archived)}
    ${entry("ticket_restored", archived)}
    ${entry("ticket_moved_board", "NULL", "NULL", ...lanes, field("$.fromBoardId"), field("$.toBoardId"))}
    ${entry("ticket_claimed", "NULL", actor)}
    ${entry("ticket_released", `${field("$.reason")} = 'resolved'`, actor)}
  END`;
};

/** The flow histories of the tickets whose activity matches `where`, from `activity` alone. */
const historiesFromActivity = (where: string) => `
  SELECT a.subject_ticket_id, group_concat(${entryOf("a")}, ',' ORDER BY a.created_at, a.id)
  FROM activity a
  WHERE ${where} AND ${isFlowEntry("a")}
  GROUP BY a.subject_ticket_id`;

/** Every flow history as the triggers should have written it (test/storage/flow-histories.test.ts). */
export const FLOW_HISTORIES_FROM_ACTIVITY = historiesFromActivity("1");

/** Rebuilds the flow history of the tickets `subjects` (a SELECT of ids) from their activity. */
const rebuild = (subjects: string) => `
  DELETE FROM flow_histories WHERE ticket_id IN (${subjects});
  INSERT INTO flow_histories (ticket_id, entries)
  ${historiesFromActivity(`a.subject_ticket_id IN (${subjects})`)};`;

/** A delete of an entry, or a change of its content, rebuilds its ticket's row (013 makes them again). */
export const REBUILD_TRIGGERS = `CREATE TRIGGER flow_histories_delete AFTER DELETE ON activity
WHEN ${isFlowEntry("OLD")}
BEGIN ${rebuild("SELECT OLD.subject_ticket_id")} END;

CREATE TRIGGER flow_histories_update
AFTER UPDATE OF subject_ticket_id, action, details_json, created_at ON activity
BEGIN ${rebuild("SELECT OLD.subject_ticket_id UNION SELECT NEW.subject_ticket_id")} END;
`;

export const flowHistoriesSchema = `
CREATE TABLE flow_histories (
  ticket_id  INTEGER PRIMARY KEY,
  entries    TEXT NOT NULL
);

CREATE TRIGGER flow_histories_insert AFTER INSERT ON activity
WHEN ${isFlowEntry("NEW")}
BEGIN
  INSERT INTO flow_histories (ticket_id, entries) VALUES (NEW.subject_ticket_id, ${entryOf("NEW")})
  ON CONFLICT (ticket_id) DO UPDATE SET entries = entries || ',' || excluded.entries;
END;

${REBUILD_TRIGGERS}
DELETE FROM flow_histories;
INSERT INTO flow_histories (ticket_id, entries) ${FLOW_HISTORIES_FROM_ACTIVITY};
`;
