import { entryOf, FLOW_KINDS } from "./012-flow-histories.js";

/**
 * The flow-history insert trigger (migrations 012, 013) tested each new activity row with
 * `action IN (...ten actions)` in its WHEN clause. Inside a trigger, SQLite builds that list's
 * lookup table anew each time the trigger fires, and the trigger fires for every activity row:
 * ~10 us of a title PATCH's ~40 us activity insert, for a row (`ticket_updated` without a
 * resolution change) that is no flow entry. The same test written as a CASE compares the action
 * with each name in turn and builds nothing (docs/performance.md, "A write's unit of work"). It
 * keeps 012's `isFlowEntry` exactly: the ten actions, and of `ticket_updated` only the rows whose
 * details carry `after.isResolved`. The trigger's body is 013's.
 */
export const isFlowEntryByCase = (a: string) => `CASE ${a}.action
    ${FLOW_KINDS.filter((action) => action !== "ticket_updated")
      .map((action) => `WHEN '${action}' THEN 1`)
      .join(" ")}
    WHEN 'ticket_updated' THEN json_extract(${a}.details_json, '$.after.isResolved') IS NOT NULL
    ELSE 0 END`;

export const flowEntryTest = `
DROP TRIGGER flow_histories_insert;
CREATE TRIGGER flow_histories_insert AFTER INSERT ON activity
WHEN ${isFlowEntryByCase("NEW")}
BEGIN
  INSERT INTO flow_histories (ticket_id, entries) VALUES (NEW.subject_ticket_id, ${entryOf("NEW")})
  ON CONFLICT (ticket_id) DO UPDATE
    SET entries = entries || ',' || excluded.entries, revision = random() >> 11;
END;`;
