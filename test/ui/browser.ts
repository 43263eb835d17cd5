import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { after } from "node:test";
import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { buildOnce } from "../helpers/build-once.js";

// Browser tests drive Debian's Chromium (never a downloaded browser) through playwright-core,
// against a real tack (startTestServer) on a temporary database. One browser per test file.

const root = fileURLToPath(new URL("../../", import.meta.url));
export const UI_DIR = join(root, "dist", "ui");
export const CHROMIUM = process.env.TACK_CHROMIUM ?? "/usr/bin/chromium";

/** Builds the UI when dist/ui is missing or older than a file under ui/. */
export function ensureUiBuilt(): void {
  buildOnce("ui", isFresh, () =>
    execFileSync(
      process.execPath,
      [
        join(root, "node_modules/vite/bin/vite.js"),
        "build",
        "--config",
        "ui/vite.config.ts",
        "--logLevel",
        "warn",
      ],
      { cwd: root, stdio: "inherit" },
    ),
  );
}

function isFresh(): boolean {
  const index = join(UI_DIR, "index.html");
  const builtAt = existsSync(index) ? statSync(index).mtimeMs : 0;
  return builtAt > 0 && newestUnder(join(root, "ui")) <= builtAt;
}

function newestUnder(folder: string): number {
  let newest = 0;
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    const stat = statSync(path);
    newest = Math.max(newest, stat.isDirectory() ? newestUnder(path) : stat.mtimeMs);
  }
  return newest;
}

// At import, before the test file starts its server: tack reads the built files when it starts.
ensureUiBuilt();

let shared: Promise<Browser> | undefined;
// Registered when the test file loads, so it runs once at the end of the whole file.
after(async () => {
  if (shared) await (await shared).close();
});

/** The file's one browser, closed when the file ends. */
export function browser(): Promise<Browser> {
  shared ??= (async () => {
    const launched = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    });
    return launched;
  })();
  return shared;
}

export interface PageOptions {
  width?: number;
  height?: number;
  colorScheme?: "light" | "dark";
  hasTouch?: boolean;
  /** Runs on the new context before the page loads (e.g. to cut the event stream). */
  prepare?: (context: BrowserContext) => Promise<unknown>;
}

/** A fresh context (own localStorage) and page; errors on the page fail loudly. */
export async function openPage(
  url: string,
  options: PageOptions = {},
): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
  const context = await (await browser()).newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    colorScheme: options.colorScheme ?? "light",
    hasTouch: options.hasTouch ?? false,
    isMobile: options.hasTouch ?? false,
  });
  await options.prepare?.(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.setDefaultTimeout(10_000);
  await page.goto(url);
  return { page, context, errors };
}

/** Drags with real pointer events in small steps (one big jump is not a drag). */
export async function dragTo(
  page: Page,
  from: { x: number; y: number },
  to: { x: number; y: number },
): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 8, from.y + 8, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 12 });
  await page.mouse.move(to.x, to.y + 1, { steps: 2 });
  await page.mouse.up();
}

export async function centerOf(page: Page, selector: string): Promise<{ x: number; y: number }> {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not visible`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/**
 * Reads until `ok` holds (every 50 ms), failing after 30 s with the last value read: only a guard
 * against waiting forever, generous because a heavily loaded machine can take seconds per round
 * trip through the browser.
 */
export async function until<T>(
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  what: string,
): Promise<T> {
  const deadline = Date.now() + 30_000;
  let value = await read();
  while (!ok(value)) {
    if (Date.now() > deadline) assert.fail(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

/**
 * Waits until the open board's whole list is in: a board's lanes are read one after another
 * after its shell, and until a lane's list has arrived the lane says "Loading tickets…", its
 * phone tab reads "0…" and both are `aria-busy`, as is the list view's grid while any lane is
 * still loading. A test that reads what the board shows (counts, a lane's cards, empty lanes,
 * the list's rows), moves cards across lanes, or counts the requests a change causes, waits for
 * this after the page opens. Only after a page load (openPage, goto, reload): a board shown
 * before an in-page navigation would pass at once.
 */
export async function everyLaneLoaded(page: Page): Promise<void> {
  await until(
    () =>
      page.evaluate(() => ({
        board: document.querySelector("#app .kanban, #app .list-view") !== null,
        loading: document.querySelectorAll('[aria-busy="true"], .lane-arriving').length,
      })),
    (state) => state.board && state.loading === 0,
    "every lane's list loaded",
  );
}
