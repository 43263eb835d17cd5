import assert from "node:assert/strict";
import { test } from "node:test";
import { startTestServer } from "../helpers/server.js";
import { openPage, until } from "./browser.js";
import { seedDemoBoard } from "./seed.js";

// A ticket's side of the loop in Chromium: a card shows its open asks and its checklist's
// progress; the dialog lists the ticket's asks with their answers, ticks a checklist box in the
// rendered body, and sets and clears "not before" (docs/api.md: Asks, Checklists, Not before).

const api = await startTestServer();
const product = await seedDemoBoard(api, "Product");

async function openAsk(ticketId: number, body: Record<string, unknown>) {
  const answer = await api.post(`/api/tickets/${ticketId}/asks`, { actor: "agent-7", ...body });
  assert.equal(answer.status, 201, answer.text);
  return answer.body as { id: number };
}

test("a card shows its open asks and checklist progress; the dialog lists asks with answers and ticks a box", async () => {
  const ticket = (
    await api.post(`/api/boards/${product.boardId}/tickets`, {
      laneId: product.lanes[0]?.id,
      title: "Release checklist",
      bodyMarkdown: "Steps:\n\n- [x] tag the release\n- [ ] write the notes\n- [ ] announce it\n",
    })
  ).body as { id: number };
  const answeredAsk = await openAsk(ticket.id, {
    question: "Which version?",
    options: ["0.9", "1.0"],
  });
  await api.post(`/api/asks/${answeredAsk.id}/answer`, { by: "Dana", option: "1.0" });
  await openAsk(ticket.id, { question: "Announce on the blog too?" });

  const { page, context, errors } = await openPage(`${api.url}/boards/${product.boardId}`);
  const card = page.locator(`[data-ticket-id="${ticket.id}"]`);
  await card.getByText("1/3").waitFor();
  await card.getByText("? 1 question").waitFor();

  await card.click();
  const dialog = page.getByRole("dialog");
  const questions = dialog.locator(".ticket-asks");
  await questions.getByText("Which version?").waitFor();
  await questions.getByText("Dana answered").waitFor();
  await questions.locator(".ask-given").getByText("1.0").waitFor();
  await questions.getByText("Announce on the blog too?").waitFor();

  const boxes = dialog.getByRole("checkbox", { name: /Checklist item/ });
  assert.equal(await boxes.count(), 3);
  await dialog.getByRole("checkbox", { name: "Checklist item 2" }).check();
  const after = await until(
    async () => (await api.get(`/api/tickets/${ticket.id}`)).body,
    (body) => body.checklist.done === 2,
    "the box ticked",
  );
  assert.equal(
    after.bodyMarkdown,
    "Steps:\n\n- [x] tag the release\n- [x] write the notes\n- [ ] announce it\n",
  );
  await page.keyboard.press("Escape");
  await card.getByText("2/3").waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test("the dialog sets and clears a ticket's not-before moment", async () => {
  const ticket = (
    await api.post(`/api/boards/${product.boardId}/tickets`, {
      laneId: product.lanes[0]?.id,
      title: "Renew the certificate",
    })
  ).body as { id: number };
  const { page, context, errors } = await openPage(`${api.url}/tickets/${ticket.id}`);
  const field = page.getByLabel("Not before");
  await field.fill("2031-03-04T09:30");
  await field.press("Enter");
  const set = await until(
    async () => (await api.get(`/api/tickets/${ticket.id}`)).body.notBefore,
    (value) => value !== null,
    "not before set",
  );
  // The page's own time zone (the browser's, here the machine's): the same moment.
  const expected = await page.evaluate(() => new Date("2031-03-04T09:30").getTime());
  assert.equal(new Date(set).getTime(), expected);
  await page.getByText(/Not ready for agents until/).waitFor();
  const ready = (await api.get(`/api/boards/${product.boardId}/tickets?ready=true`)).body.tickets;
  assert.ok(!ready.some((entry: { id: number }) => entry.id === ticket.id));

  await page.getByRole("button", { name: "Clear" }).click();
  await until(
    async () => (await api.get(`/api/tickets/${ticket.id}`)).body.notBefore,
    (value) => value === null,
    "not before cleared",
  );
  assert.deepEqual(errors, []);
  await context.close();
});
