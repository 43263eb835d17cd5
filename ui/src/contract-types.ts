// Shapes of docs/api.md's asks, templates, checklists and "not before" while the server's schemas
// for them are not yet in src/http/schemas: once they are, these move to types.ts as Static<>
// aliases (test/ui/types.test.ts then flags any copy left here under a schema's name).

export interface Ask {
  id: number;
  ticketId: number;
  boardId: number;
  actor: string;
  question: string;
  questionHtml: string;
  options: string[];
  blocking: boolean;
  status: "open" | "answered" | "withdrawn";
  answer: {
    text: string | null;
    textHtml: string | null;
    option: string | null;
    by: string;
  } | null;
  createdAt: string;
  answeredAt: string | null;
}

export interface TemplateTicket {
  key: string;
  title: string;
  bodyMarkdown: string;
  laneName: string | null;
  priority: number;
  tagNames: string[];
  parentKey: string | null;
  blockerKeys: string[];
}

export interface Template {
  id: number;
  boardId: number;
  name: string;
  description: string;
  variables: string[];
  tickets: TemplateTicket[];
  createdAt: string;
  updatedAt: string;
}

/** The fields a ticket and its summary gain with asks, checklists and "not before". */
export interface TicketLoopFields {
  openAsks: number;
  checklist: { done: number; total: number };
  notBefore: string | null;
}
