// Heading anchors as GitHub writes them: every heading of a body, Markdown or raw HTML, gets
// `id="user-content-<slug>"`, so a link `[jump](#slug)` in the body can lead to it (the UI
// resolves `#slug` to `user-content-slug`, as GitHub's page does). The slug is github-slugger's:
//   - the heading's text as a reader sees it (tags removed, character references decoded; an
//     image's alt text is no text), lower-cased;
//   - every character removed but letters, marks, decimal digits, connector punctuation (`_`),
//     `-` and the space; then each space becomes `-`;
//   - a slug already given in the body gets `-1`, `-2`, ... (`intro`, `intro-1`, `intro-2`).
// A heading whose slug is empty (`## !!!`) gets no id.
//
// It runs once over a body's finished HTML, after the allowlist filter (html-sanitizer.ts) or
// the direct renderer, so both paths get their anchors from the same code. The HTML it reads is
// the renderer's own: attribute values and text are escaped, so `<hN` and `</hN>` only ever
// start and end a heading. The filter keeps no `id` but a `user-content-` one on a heading
// (html-allowlist.ts), and this pass replaces that one too: a body cannot choose its ids.

import { attribute } from "./html-allowlist.js";
import { htmlEntities } from "./load-on-first-use.js";

const MAY_HAVE_HEADING = /<h[1-6][\s>]/;
/** A heading's start or end tag. */
const HEADING_TAG = /<(\/?)h([1-6])(\s[^>]*)?>/g;
const ID_ATTRIBUTE = /\s+id="[^"]*"/g;
const TAG = /<[^>]*>/g;
/** What github-slugger removes: all but letters, marks, decimal digits, `_`, `-` and space. */
const NOT_IN_SLUG = /[^\p{L}\p{M}\p{Nd}\p{Pc} -]/gu;

/** The slug of a heading's text, before repeats are numbered. */
export function headingSlug(text: string): string {
  return text.toLowerCase().replace(NOT_IN_SLUG, "").replace(/ /g, "-");
}

/** github-slugger's numbering of repeats: `occurrences` holds every slug given so far. */
function uniqueSlug(slug: string, occurrences: Map<string, number>): string {
  let result = slug;
  while (occurrences.has(result)) {
    const count = (occurrences.get(slug) ?? 0) + 1;
    occurrences.set(slug, count);
    result = `${slug}-${count}`;
  }
  occurrences.set(result, 0);
  return result;
}

/**
 * `html` (a whole rendered body) with an id on each heading. One pass over the heading tags: a
 * start tag followed by its end tag is a heading; a start tag another start tag follows first
 * (raw HTML left open) gets no id, so the pass stays linear however many are left open.
 */
export function withHeadingAnchors(html: string): string {
  if (!MAY_HAVE_HEADING.test(html)) return html;
  const occurrences = new Map<string, number>();
  let out = "";
  let written = 0;
  let open: { level: string; index: number; end: number; attributes: string } | undefined;
  HEADING_TAG.lastIndex = 0;
  for (let tag = HEADING_TAG.exec(html); tag !== null; tag = HEADING_TAG.exec(html)) {
    const [whole, closing, level = "", attributes = ""] = tag;
    if (closing === "") {
      open = { level, index: tag.index, end: tag.index + whole.length, attributes };
      continue;
    }
    if (open === undefined || open.level !== level) continue;
    const content = html.slice(open.end, tag.index);
    const others = open.attributes.replace(ID_ATTRIBUTE, "");
    const slug = headingSlug(htmlEntities().decodeHTML(content.replace(TAG, "")));
    const id =
      slug === "" ? "" : ` ${attribute("id", `user-content-${uniqueSlug(slug, occurrences)}`)}`;
    out += `${html.slice(written, open.index)}<h${level}${id}${others}>`;
    written = open.end;
    open = undefined;
  }
  return written === 0 ? html : out + html.slice(written);
}
