import { openDatabase } from "../src/storage/database.js";
import { flowHistoryStore } from "../src/storage/flow-history.js";
const db = openDatabase("/tmp/i23b.sqlite");
const s = flowHistoryStore(db);
const q = db.prepare(`SELECT '[' || ifnull(group_concat(
         '[' || t.id || ',' || t.board_id || ',' || t.lane_id || ',' || t.is_resolved || ','
           || t.is_archived || ',[' || ifnull(h.entries, '') || ']]', ','), '') || ']'
       FROM tickets t 
       LEFT JOIN flow_histories h ON h.ticket_id = t.id WHERE t.board_id = 1`).pluck();
const t = (label: string, f: () => any) => { const c = process.cpuUsage(); const r = f(); const u = process.cpuUsage(c); console.log(label, ((u.user + u.system) / 1000).toFixed(0), "ms"); return r; };
for (let i = 0; i < 4; i++) {
  t("store.tickets", () => s.tickets(1));
  const text = t("sql only (no subjects cte)", () => q.get());
  t("parse", () => JSON.parse(text));
}
