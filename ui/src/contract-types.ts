// Shapes of docs/api.md's checklists and "not before" while the server's schemas
// for them are not yet in src/http/schemas: once they are, these move to types.ts as Static<>
// aliases (test/ui/types.test.ts then flags any copy left here under a schema's name).

/** The fields a ticket and its summary gain with checklists and "not before". */
export interface TicketLoopFields {
  openAsks: number;
  checklist: { done: number; total: number };
  notBefore: string | null;
}
