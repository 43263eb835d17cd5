import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api } from "../api";
import type { Ask } from "../types";
import { AskItem } from "./AskItem";

/**
 * The ticket dialog's questions: every ask on the ticket, oldest first, the open ones answerable
 * here as in the inbox. Read again whenever the ticket's version moves (an ask opened, answered
 * or withdrawn changes the ticket, docs/api.md "Asks").
 */
export function TicketAsks(props: { ticketId: number; version: number; onChanged: () => void }) {
  const asks = useSignal<Ask[] | null>(null);
  useEffect(() => {
    let live = true;
    api.get<{ asks: Ask[] }>(`/api/tickets/${props.ticketId}/asks`).then(
      (answer) => {
        if (live) asks.value = answer.asks;
      },
      // A server without asks (or a ticket just deleted): the section stays away.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [props.ticketId, props.version]);
  const list = asks.value;
  if (!list || list.length === 0) return null;
  const open = list.filter((ask) => ask.status === "open").length;
  return (
    <section class="ticket-asks" aria-labelledby={`asks-of-${props.ticketId}`}>
      <h3 class="ticket-asks-title" id={`asks-of-${props.ticketId}`}>
        Questions{open > 0 ? ` · ${open} open` : ""}
      </h3>
      {list.map((ask) => (
        <AskItem
          key={`${ask.id}-${ask.status}`}
          ask={ask}
          onAnswered={(answered) => {
            asks.value = (asks.value ?? []).map((entry) =>
              entry.id === answered.id ? answered : entry,
            );
            props.onChanged();
          }}
        />
      ))}
    </section>
  );
}
