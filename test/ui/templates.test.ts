import assert from "node:assert/strict";
import { test } from "node:test";
import { startTestServer } from "../helpers/server.js";
import { openPage, until } from "./browser.js";
import { seedDemoBoard } from "./seed.js";

// Templates in Chromium (docs/api.md, "Templates"): written by hand with a variable, then "New
// from template" asks for its value and makes the tickets; one drafted from selected tickets
// keeps their parent link; edit and delete.

const api = await startTestServer();
const { boardId, lanes } = await seedDemoBoard(api, "Templated");
const titles = async () =>
  ((await api.get(`/api/boards/${boardId}/tickets`)).body.tickets as { title: string }[]).map(
    (ticket) => ticket.title,
  );

test("a template written by hand with a variable; New from template fills it in", async () => {
  const { page, context, errors } = await openPage(`${api.url}/boards/${boardId}`);
  await page.locator(".card").first().waitFor();
  await page.getByRole("button", { name: "▦ Templates" }).click();
  const dialog = page.getByRole("dialog", { name: "Templates" });
  await dialog.getByText("No templates on this board yet.", { exact: false }).waitFor();
  await dialog.getByRole("button", { name: "New template" }).click();

  const form = page.getByRole("dialog", { name: "New template" });
  await form.getByRole("textbox", { name: "Name" }).fill("Release");
  const first = form.getByRole("group", { name: "Ticket 1" });
  await first.getByRole("textbox", { name: "Title" }).fill("Release {{version}}");
  await first.getByRole("combobox", { name: "Lane" }).selectOption("Doing");
  await form.getByRole("button", { name: "Add ticket" }).click();
  const second = form.getByRole("group", { name: "Ticket 2" });
  await second.getByRole("textbox", { name: "Title" }).fill("Notes for {{version}}");
  await second.getByRole("combobox", { name: "Parent" }).selectOption("t1");
  await form.getByText("Variables: version.").waitFor();
  await form.getByRole("button", { name: "Save template" }).click();

  const list = page.getByRole("dialog", { name: "Templates" });
  await list.getByText("variables: version", { exact: false }).waitFor();
  const saved = (await api.get(`/api/boards/${boardId}/templates`)).body.templates;
  assert.equal(saved.length, 1);
  assert.deepEqual(
    saved[0].tickets.map(
      (t: { key: string; parentKey: string | null; laneName: string | null }) => [
        t.key,
        t.parentKey,
        t.laneName,
      ],
    ),
    [
      ["t1", null, "Doing"],
      ["t2", "t1", null],
    ],
  );

  await list.getByRole("button", { name: "New from template Release" }).click();
  const use = page.getByRole("dialog", { name: "New from “Release”" });
  await use.getByRole("textbox", { name: "version" }).fill("2.1");
  await use.getByRole("combobox", { name: /Lane for the 1 ticket/ }).selectOption("Review");
  await use.getByRole("button", { name: "Create 2 ticket(s)" }).click();
  await use.waitFor({ state: "detached" });
  const made = await until(
    async () =>
      (
        (await api.get(`/api/boards/${boardId}/tickets`)).body.tickets as {
          title: string;
          laneId: number;
          parentTicketId: number | null;
          id: number;
        }[]
      ).filter((ticket) => ticket.title.endsWith("2.1")),
    (list) => list.length === 2,
    "made from the template",
  );
  const release = made.find((ticket) => ticket.title === "Release 2.1");
  const notes = made.find((ticket) => ticket.title === "Notes for 2.1");
  assert.equal(release?.laneId, lanes[1]?.id);
  assert.equal(notes?.laneId, lanes[2]?.id);
  assert.equal(notes?.parentTicketId, release?.id);
  // Shown on the board without a reload.
  await page.locator(".card").filter({ hasText: "Notes for 2.1" }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test("a template drafted from selected tickets, edited, then deleted", async () => {
  const all = (await api.get(`/api/boards/${boardId}/tickets`)).body.tickets as {
    id: number;
    title: string;
    parentTicketId: number | null;
  }[];
  const child = all.find((ticket) => ticket.parentTicketId !== null) as {
    id: number;
    title: string;
    parentTicketId: number;
  };
  const parent = all.find((ticket) => ticket.id === child.parentTicketId) as { title: string };
  const { page, context, errors } = await openPage(`${api.url}/boards/${boardId}`);
  await page.locator(`#card-${child.id}`).focus();
  await page.keyboard.press("x");
  await page.locator(`#card-${child.parentTicketId}`).focus();
  await page.keyboard.press("x");
  await page.getByRole("button", { name: "Save as template…" }).click();
  const form = page.getByRole("dialog", { name: "New template" });
  await form.getByRole("group", { name: "Ticket 2" }).waitFor();
  await form.getByRole("textbox", { name: "Name" }).fill("Epic skeleton");
  await form.getByRole("button", { name: "Save template" }).click();
  const list = page.getByRole("dialog", { name: "Templates" });
  await list.getByText("Epic skeleton").waitFor();
  const saved = (
    (await api.get(`/api/boards/${boardId}/templates`)).body.templates as {
      name: string;
      id: number;
      tickets: { key: string; title: string; parentKey: string | null }[];
    }[]
  ).find((template) => template.name === "Epic skeleton");
  assert.ok(saved);
  const byTitle = new Map(saved.tickets.map((ticket) => [ticket.title, ticket]));
  assert.equal(byTitle.get(child.title)?.parentKey, byTitle.get(parent.title)?.key);

  await list.getByRole("button", { name: "Edit template Epic skeleton" }).click();
  const edit = page.getByRole("dialog", { name: "Edit template “Epic skeleton”" });
  await edit.getByRole("textbox", { name: "Name" }).fill("Epic outline");
  await edit.getByRole("button", { name: "Save template" }).click();
  await list.getByText("Epic outline").waitFor();
  assert.equal((await api.get(`/api/templates/${saved.id}`)).body.name, "Epic outline");

  page.once("dialog", (dialog) => void dialog.accept());
  await list.getByRole("button", { name: "Delete template Epic outline" }).click();
  await until(
    async () => (await api.get(`/api/templates/${saved.id}`)).status,
    (status) => status === 404,
    "deleted",
  );
  assert.ok((await titles()).length > 0);
  assert.deepEqual(errors, []);
  await context.close();
});
