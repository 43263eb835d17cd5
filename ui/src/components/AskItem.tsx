import { useSignal } from "@preact/signals";
import type { ComponentChildren } from "preact";
import { errorMessage } from "../api";
import { answerAsk } from "../asks";
import { announce, toast } from "../toasts";
import type { Ask } from "../types";
import { formatDateTime, relativeTime } from "./bits";

/**
 * One ask: who asked, when, the question (rendered by the server), and, while it is open, a
 * button per option and a free-text answer; once answered, the answer and who gave it.
 */
export function AskItem(props: {
  ask: Ask;
  /** Above the question: the ticket and board it is about (the inbox), or nothing (the dialog). */
  context?: ComponentChildren;
  onAnswered?: (answered: Ask) => void;
}) {
  const { ask } = props;
  const text = useSignal("");
  const busy = useSignal(false);
  const headingId = `ask-${ask.id}-heading`;

  const send = async (answer: { option?: string; text?: string }) => {
    busy.value = true;
    try {
      const answered = await answerAsk(ask.id, answer);
      text.value = "";
      announce(`Answered ${ask.actor}'s question on #${ask.ticketId}.`);
      props.onAnswered?.(answered);
    } catch (error) {
      toast(`Not answered: ${errorMessage(error)}`, "error");
    } finally {
      busy.value = false;
    }
  };

  return (
    <article class={`ask ask-${ask.status}`} aria-labelledby={headingId}>
      <header class="ask-head">
        {props.context}
        <h3 class="ask-who" id={headingId}>
          <strong>{ask.actor}</strong> asks
          {ask.status === "open" && !ask.blocking && <span class="muted"> (not blocking)</span>}
        </h3>
        <time class="muted small" dateTime={ask.createdAt} title={formatDateTime(ask.createdAt)}>
          {relativeTime(ask.createdAt)}
        </time>
        {ask.status !== "open" && (
          <span class={`badge ${ask.status === "answered" ? "badge-ok" : "badge-muted"}`}>
            {ask.status === "answered" ? "Answered" : "Withdrawn"}
          </span>
        )}
      </header>
      <div class="markdown ask-question" dangerouslySetInnerHTML={{ __html: ask.questionHtml }} />
      {ask.status === "open" ? (
        <div class="ask-answer">
          {ask.options.length > 0 && (
            <div class="ask-options" role="group" aria-label="Answer with an option">
              {ask.options.map((option) => (
                <button
                  key={option}
                  type="button"
                  class="button ask-option"
                  disabled={busy.value}
                  onClick={() => void send({ option })}
                >
                  {option}
                </button>
              ))}
            </div>
          )}
          <form
            class="ask-text"
            onSubmit={(event) => {
              event.preventDefault();
              if (text.value.trim()) void send({ text: text.value });
            }}
          >
            <textarea
              class="ask-text-input"
              aria-label={`Answer ${ask.actor} in your own words`}
              placeholder={ask.options.length > 0 ? "Or answer in your own words…" : "Your answer…"}
              rows={2}
              value={text.value}
              onInput={(event) => (text.value = (event.target as HTMLTextAreaElement).value)}
              onKeyDown={(event) => {
                if ((event.ctrlKey || event.metaKey) && event.key === "Enter") {
                  event.preventDefault();
                  if (text.value.trim()) void send({ text: text.value });
                }
              }}
            />
            <button
              type="submit"
              class="button button-primary"
              disabled={busy.value || !text.value.trim()}
            >
              Send answer
            </button>
          </form>
        </div>
      ) : (
        ask.answer && (
          <div class="ask-given">
            <span class="muted small">
              {ask.status === "answered" ? `${ask.answer.by} answered` : "Withdrawn"}
              {ask.answeredAt ? ` ${relativeTime(ask.answeredAt)}` : ""}:
            </span>
            {ask.answer.option && <span class="badge badge-ok">{ask.answer.option}</span>}
            {ask.answer.textHtml && (
              <div class="markdown" dangerouslySetInnerHTML={{ __html: ask.answer.textHtml }} />
            )}
          </div>
        )
      )}
      {ask.status === "withdrawn" && !ask.answer && (
        <p class="muted small">
          Withdrawn by {ask.actor}
          {ask.answeredAt ? ` ${relativeTime(ask.answeredAt)}` : ""}.
        </p>
      )}
    </article>
  );
}
