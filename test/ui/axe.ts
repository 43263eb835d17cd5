import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

// axe-core evaluated in the page through the DevTools protocol (which the page's CSP allows):
// the serious and critical violations of the WCAG 2 A and AA rules, as short lines.

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

/** The page's serious and critical axe violations (empty when there are none). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<any> } }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa"] },
    });
    return result.violations
      .filter(
        (violation: { impact: string }) =>
          violation.impact === "serious" || violation.impact === "critical",
      )
      .map(
        (violation: { id: string; nodes: { target: string[] }[] }) =>
          `${violation.id}: ${violation.nodes
            .slice(0, 3)
            .map((node) => node.target.join(" "))
            .join(", ")}`,
      );
  });
}
