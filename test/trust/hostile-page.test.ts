import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { after, before, describe, test } from "node:test";
import { type Browser, chromium, type Page, type Response } from "playwright-core";
import { createBoard, snapshot } from "../helpers/factories.js";
import { startTestServer } from "../helpers/server.js";

/**
 * A hostile web page, in real Chromium, served from another local origin (another port: the
 * same site as tack, which makes Fetch Metadata say `same-site`), tries everything a page can
 * do to read or change tack: fetch (GET, POST, DELETE; cors and no-cors; with credentials),
 * HTML forms (urlencoded, text/plain, multipart), <img>, <script>, EventSource, and a
 * DNS-rebinding page whose own origin resolves to tack. It reads nothing, changes nothing, and
 * every request of it that reaches tack is answered 403. tack's own origin, in the same browser,
 * reads and writes.
 */

const tack = await startTestServer();
const tackPort = new URL(tack.url).port;
const secret = await createBoard(tack, "Secret board");
const SECRET = "Secret board";

function attackPage(target: string, boardId: number): string {
  return `<!doctype html><html><body><iframe name="sink"></iframe><script>
const T = ${JSON.stringify(target)};
const results = {};
async function attempt(name, run) {
  try { results[name] = String(await run()); } catch (error) { results[name] = "blocked: " + error.name; }
}
function loaded(element) {
  return new Promise((resolve) => {
    element.onload = () => resolve("loaded");
    element.onerror = () => resolve("error");
    document.body.append(element);
  });
}
function submitForm(enctype, fields) {
  const form = document.createElement("form");
  form.action = T + "/api/boards";
  form.method = "POST";
  form.enctype = enctype;
  form.target = "sink";
  for (const [name, value] of fields) {
    const input = document.createElement("input");
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  const frame = document.querySelector("iframe");
  const done = new Promise((resolve) => { frame.onload = () => resolve("submitted"); });
  form.submit();
  return done;
}
(async () => {
  await attempt("fetch GET", async () => (await fetch(T + "/api/boards")).text());
  await attempt("fetch GET with credentials", async () => (await fetch(T + "/api/boards", { credentials: "include" })).text());
  await attempt("fetch GET no-cors", async () => {
    const response = await fetch(T + "/api/boards", { mode: "no-cors" });
    return response.type + ":" + (await response.text());
  });
  await attempt("fetch export", async () => (await fetch(T + "/api/boards/${boardId}/export")).text());
  await attempt("fetch POST json", async () => (await fetch(T + "/api/boards", {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "pwned fetch json" }) })).status);
  await attempt("fetch POST text/plain no-cors", async () => (await fetch(T + "/api/boards", {
    method: "POST", mode: "no-cors", credentials: "include", headers: { "content-type": "text/plain" },
    body: JSON.stringify({ name: "pwned fetch text" }) })).type);
  await attempt("fetch POST json no-cors", async () => (await fetch(T + "/api/boards", {
    method: "POST", mode: "no-cors", headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "pwned fetch no-cors" }) })).type);
  await attempt("fetch DELETE", async () => (await fetch(T + "/api/boards/${boardId}", { method: "DELETE" })).status);
  await attempt("form urlencoded", () => submitForm("application/x-www-form-urlencoded", [["name", "pwned form"]]));
  await attempt("form text/plain", () => submitForm("text/plain", [['{"name":"pwned form text","x":"', '"}']]));
  await attempt("form multipart", () => submitForm("multipart/form-data", [["name", "pwned form multipart"]]));
  await attempt("img", () => { const image = new Image(); image.src = T + "/api/boards"; return loaded(image); });
  await attempt("script", () => { const script = document.createElement("script"); script.src = T + "/api/boards"; return loaded(script); });
  await attempt("EventSource", () => new Promise((resolve) => {
    const source = new EventSource(T + "/api/boards/${boardId}/events");
    source.onopen = () => { source.close(); resolve("opened"); };
    source.onerror = () => { source.close(); resolve("error"); };
  }));
  window.results = results;
})();
</script><a id="link" href="${target}/tickets/1">a link to a ticket</a></body></html>`;
}

let hostile: Server;
let hostileOrigin = "";
let browser: Browser;
let tackResponses: Response[] = [];

before(async () => {
  hostile = createServer((_request, response) => {
    response.setHeader("content-type", "text/html");
    response.end(attackPage(tack.url, secret.board.id));
  });
  await new Promise<void>((resolve) => hostile.listen(0, "127.0.0.1", resolve));
  const address = hostile.address();
  hostileOrigin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
});
after(async () => {
  await browser?.close();
  hostile?.close();
});

async function openPage(): Promise<Page> {
  const context = await browser.newContext();
  tackResponses = [];
  context.on("response", (response) => {
    if (new URL(response.url()).port === tackPort) tackResponses.push(response);
  });
  return context.newPage();
}

async function runAttacks(page: Page): Promise<Record<string, string>> {
  await page.waitForFunction(() => (window as unknown as { results?: unknown }).results, null, {
    timeout: 60_000,
  });
  return page.evaluate(() => (window as unknown as { results: Record<string, string> }).results);
}

describe("a page from another local origin", () => {
  test("can neither read nor change tack, by any means, and every request it makes is refused", async () => {
    const before = await snapshot(tack);
    const page = await openPage();
    await page.goto(hostileOrigin);
    const results = await runAttacks(page);

    for (const [name, outcome] of Object.entries(results)) {
      assert.ok(!outcome.includes(SECRET), `${name} read tack's data: ${outcome}`);
    }
    // Reads: refused by the browser (no CORS) and by tack.
    assert.equal(results["fetch GET"], "blocked: TypeError");
    assert.equal(results["fetch GET with credentials"], "blocked: TypeError");
    assert.equal(results["fetch GET no-cors"], "opaque:");
    assert.equal(results["fetch export"], "blocked: TypeError");
    assert.equal(results.img, "error");
    assert.equal(results.script, "error");
    assert.equal(results.EventSource, "error");
    // Writes: preflighted ones never leave the browser; the others are refused by tack.
    assert.equal(results["fetch POST json"], "blocked: TypeError");
    assert.equal(results["fetch DELETE"], "blocked: TypeError");

    assert.ok(tackResponses.length >= 5, `only ${tackResponses.length} requests reached tack`);
    for (const response of tackResponses) {
      assert.equal(response.status(), 403, `${response.request().method()} ${response.url()}`);
    }
    assert.deepEqual(await snapshot(tack), before, "nothing changed");
    const boards = (await tack.get("/api/boards")).body.boards as { name: string }[];
    assert.deepEqual(
      boards.map((board) => board.name),
      [SECRET],
    );
    await page.context().close();
  });

  test("a link on it still opens a tack page (a top-level navigation)", async () => {
    const page = await openPage();
    await page.goto(hostileOrigin);
    await runAttacks(page);
    tackResponses = [];
    const [navigation] = await Promise.all([page.waitForNavigation(), page.click("#link")]);
    assert.ok(navigation);
    assert.notEqual(navigation.status(), 403, "the navigation is not refused");
    assert.equal(new URL(navigation.url()).pathname, "/tickets/1");
    await page.context().close();
  });
});

describe("a DNS-rebinding page (its own name resolves to tack)", () => {
  test("gets nothing: tack refuses its Host, for reads and writes", async () => {
    const before = await snapshot(tack);
    const page = await openPage();
    const rebound = `http://rebind.test:${tackPort}`;
    // Chromium cannot be made to resolve a name to 127.0.0.1 here, so the rebinding is done at
    // the HTTP level: the attacker's document (as their server sent it before the name was
    // re-pointed), then every other request forwarded to tack carrying its Host, as a browser
    // whose DNS now answers 127.0.0.1 would send it.
    const forwarded: number[] = [];
    await page.route(`${rebound}/**`, async (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === "/") {
        await route.fulfill({
          contentType: "text/html",
          body: attackPage(rebound, secret.board.id),
        });
        return;
      }
      const response = await route.fetch({
        url: `${tack.url}${url.pathname}${url.search}`,
        headers: { ...route.request().headers(), host: `rebind.test:${tackPort}` },
      });
      forwarded.push(response.status());
      await route.fulfill({ response });
    });
    await page.goto(`${rebound}/`);
    const results = await runAttacks(page);
    for (const [name, outcome] of Object.entries(results)) {
      assert.ok(!outcome.includes(SECRET), `${name} read tack's data: ${outcome}`);
    }
    // Same-origin for the browser, so it may read the answers: tack's refusals.
    assert.match(results["fetch GET"] ?? "", /host not allowed|blocked/);
    assert.match(results["fetch POST json"] ?? "", /403|blocked/);
    assert.ok(forwarded.length >= 5, `only ${forwarded.length} requests reached tack`);
    assert.ok(
      forwarded.every((status) => status === 403),
      forwarded.join(", "),
    );
    assert.deepEqual(await snapshot(tack), before, "nothing changed");
    await page.context().close();
  });
});

describe("tack's own origin in the same browser", () => {
  test("reads, writes and opens the board stream", async () => {
    const page = await openPage();
    // The web UI is served at "/" (where there is none yet, a 404 page is still tack's origin).
    await page.goto(`${tack.url}/`);
    const outcome = await page.evaluate(async (boardId) => {
      const boards = await (await fetch("/api/boards")).json();
      const created = await fetch("/api/boards", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "made by tack's own page" }),
      });
      const opened = await new Promise((resolve) => {
        const source = new EventSource(`/api/boards/${boardId}/events`);
        source.onopen = () => {
          source.close();
          resolve("opened");
        };
        source.onerror = () => {
          source.close();
          resolve("error");
        };
      });
      return {
        names: boards.boards.map((board: { name: string }) => board.name),
        created: created.status,
        opened,
      };
    }, secret.board.id);
    assert.ok(outcome.names.includes(SECRET));
    assert.equal(outcome.created, 201);
    assert.equal(outcome.opened, "opened");
    const names = ((await tack.get("/api/boards")).body.boards as { name: string }[]).map(
      (board) => board.name,
    );
    assert.ok(names.includes("made by tack's own page"));
    await page.context().close();
  });
});
