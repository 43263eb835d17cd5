import assert from "node:assert/strict";
import { test } from "node:test";
import { startTestServer } from "../helpers/server.js";
import { tokensOf } from "../helpers/tokens.js";
import { openPage } from "./browser.js";

// The cookie path of remote access (docs/api.md, "Access tokens") in real Chromium: a server with
// --require-token shows the sign-in page (its inline script allowed by the CSP's hash), takes a
// token for an HttpOnly, SameSite=Strict session cookie, serves the UI with it, and signs out.

const api = await startTestServer({ requireToken: true });
await api.post("/api/boards", { name: "Hidden until signed in" }); // refused: no token
const tokens = tokensOf(api.dbFile);
const { token } = tokens.create({ name: "browser", readOnly: false });
tokens.close();

test("sign in with a token, use the UI on its session cookie, sign out", async () => {
  const { page, context, errors } = await openPage(`${api.url}/`);
  await page.getByRole("heading", { name: "Sign in to tack" }).waitFor();
  const field = page.getByLabel("Access token");

  await field.fill("tack_not-a-real-token");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByText("That token was not accepted").waitFor();
  assert.deepEqual(await context.cookies(), []);

  await field.fill(token);
  await page.getByRole("button", { name: "Sign in" }).click();
  // The reload serves the UI itself: its sidebar and the way out.
  await page.getByRole("button", { name: "Sign out" }).waitFor();
  const [cookie] = await context.cookies();
  assert.equal(cookie?.name, "tack_session");
  assert.equal(cookie?.httpOnly, true);
  assert.equal(cookie?.sameSite, "Strict");
  assert.equal(cookie?.path, "/");
  assert.ok(!cookie?.value.includes(token), "the cookie is not the token");
  assert.equal(await page.evaluate(() => document.cookie), "", "page script cannot read it");

  // The UI works on the cookie: a board made through it carries the token's name.
  const made = await page.evaluate(async () => {
    const response = await fetch("/api/boards", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Made in the browser" }),
    });
    return response.status;
  });
  assert.equal(made, 201);

  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("heading", { name: "Sign in to tack" }).waitFor();
  assert.deepEqual(await context.cookies(), []);
  // Only the expected 401s of the sign-in flow; no CSP violation, no script error.
  const unexpected = errors.filter((message) => !/status of 401/.test(message));
  assert.deepEqual(unexpected, []);
  await context.close();
});
