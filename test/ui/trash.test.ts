import assert from "node:assert/strict";
import { test } from "node:test";
import { startTestServer } from "../helpers/server.js";
import { openPage, until } from "./browser.js";
import { seedDemoBoard } from "./seed.js";

// Undo and the Trash view (docs/api.md, "The trash") in Chromium: a delete's toast offers Undo, `u`
// undoes the last delete, Shift+T opens the trash with Restore and Erase.

const api = await startTestServer();
const { boardId } = await seedDemoBoard(api, "Trash");
const status = async (path: string) => (await api.get(path)).status;

test("delete a ticket, Undo in the toast; again, then `u`; the Trash view restores and erases", async () => {
  const ticket = (await api.get(`/api/boards/${boardId}/tickets`)).body.tickets[0];
  const { page, context, errors } = await openPage(`${api.url}/tickets/${ticket.id}`);
  const deleteTicket = async () => {
    await page.getByRole("button", { name: "Delete ticket…" }).click();
    await page
      .getByRole("dialog")
      .getByRole("button", { name: "Delete ticket", exact: true })
      .click();
    await until(
      () => status(`/api/tickets/${ticket.id}`),
      (s) => s === 404,
      "deleted",
    );
  };
  await deleteTicket();
  await page.locator(".toast").getByRole("button", { name: "Undo" }).click();
  await until(
    () => status(`/api/tickets/${ticket.id}`),
    (s) => s === 200,
    "undone by the toast",
  );
  await page.locator(`[data-ticket-id="${ticket.id}"]`).first().waitFor();

  await page.goto(`${api.url}/tickets/${ticket.id}`);
  await deleteTicket();
  await page.locator(".toast").getByRole("button", { name: "Undo" }).waitFor();
  await page.locator("body").press("u");
  await until(
    () => status(`/api/tickets/${ticket.id}`),
    (s) => s === 200,
    "undone by u",
  );

  const tags = (await api.get(`/api/boards/${boardId}/tags`)).body.tags as {
    id: number;
    name: string;
  }[];
  const [kept, erased] = tags as [{ id: number; name: string }, { id: number; name: string }];
  await api.delete(`/api/tags/${kept.id}`);
  await api.delete(`/api/tags/${erased.id}`);
  await page.locator("body").press("Shift+T");
  const trash = page.getByRole("dialog", { name: "Trash" });
  await trash.getByRole("button", { name: `Restore tag ${kept.name}` }).click();
  await until(
    async () => (await api.get(`/api/boards/${boardId}/tags`)).body.tags.map((t: any) => t.id),
    (ids) => ids.includes(kept.id),
    "tag restored",
  );
  page.once("dialog", (dialog) => void dialog.accept());
  await trash.getByRole("button", { name: `Erase tag ${erased.name} for good` }).click();
  await until(
    async () => (await api.get("/api/trash")).body.items.length,
    (n) => n === 0,
    "erased",
  );
  await trash.getByText("The trash is empty.").waitFor();
  await trash.getByRole("button", { name: "All boards" }).click();
  await trash.getByText("The trash is empty.").waitFor();
  // The page does not refetch a ticket it deleted itself when the delete's stream message names
  // it (that was a 404, which Chromium logs as a failed resource).
  assert.deepEqual(errors, []);
  await context.close();
});
