/**
 * Reads a V8 CPU profile (`node --cpu-prof`) and prints where the time went: the functions with
 * the most self time, and with the most inclusive time (a function's own time plus its callees',
 * counted once per sample however often it recurs). `node --import tsx bench/profile-summary.ts
 * <file.cpuprofile> [regex]`: with a regex, the inclusive list keeps only matching functions.
 * `... <file.cpuprofile> --tree <regex> [depth] [min ms]`: the call tree (inclusive and self ms)
 * under the three heaviest nodes whose function matches (outermost ones: not those inside a
 * matching node), down to `depth` (6) levels, leaving out branches under `min ms` (10).
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** `function dir/file:line`, the name both views print. */
function nameOf(node: ProfileNode): string {
  const where = node.callFrame.url.split("/").slice(-2).join("/");
  return `${node.callFrame.functionName || "(anonymous)"} ${where}:${node.callFrame.lineNumber + 1}`;
}

export function summarizeProfile(file: string, filter?: RegExp, rows = 30): string {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const timeOf = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    timeOf.set(id, (timeOf.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [id, time] of timeOf) {
    const node = nodes.get(id) as ProfileNode;
    total += time;
    if (node.callFrame.functionName === "(idle)") idle += time;
    self.set(nameOf(node), (self.get(nameOf(node)) ?? 0) + time);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const key = nameOf(nodes.get(at) as ProfileNode);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + time);
    }
  }
  const busy = total - idle;
  const list = (map: Map<string, number>) =>
    [...map]
      .filter(([key]) => !key.startsWith("(idle)") && !key.startsWith("(root)"))
      .sort((a, b) => b[1] - a[1])
      .slice(0, rows)
      .map(
        ([key, time]) =>
          `${(time / 1000).toFixed(1).padStart(9)} ms ${((100 * time) / busy).toFixed(1).padStart(5)}%  ${key}`,
      )
      .join("\n");
  const matching = filter ? new Map([...inclusive].filter(([key]) => filter.test(key))) : inclusive;
  return [
    `busy ${(busy / 1000).toFixed(0)} ms of ${(total / 1000).toFixed(0)} ms sampled (main thread)`,
    "--- self time",
    list(self),
    "--- inclusive time",
    list(matching),
  ].join("\n");
}

/** The call tree under the heaviest nodes matching `root`: inclusive ms, self ms, function. */
export function callTree(file: string, root: RegExp, depth = 6, minMs = 10): string {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  const inclusive = new Map<number, number>();
  const total = (id: number): number => {
    let ms = inclusive.get(id);
    if (ms === undefined) {
      ms = self.get(id) ?? 0;
      for (const child of nodes.get(id)?.children ?? []) ms += total(child);
      inclusive.set(id, ms);
    }
    return ms;
  };
  const lines: string[] = [];
  const print = (node: ProfileNode, level: number) => {
    if (total(node.id) < minMs) return;
    const times = `${total(node.id).toFixed(0).padStart(6)} ${(self.get(node.id) ?? 0).toFixed(0).padStart(5)}`;
    lines.push(`${"  ".repeat(level)}${times} ${nameOf(node)}`);
    if (level >= depth) return;
    const children = (node.children ?? []).map((id) => nodes.get(id) as ProfileNode);
    for (const child of children.sort((a, b) => total(b.id) - total(a.id))) print(child, level + 1);
  };
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const matches = (id: number) => root.test(nameOf(nodes.get(id) as ProfileNode));
  const insideMatch = (id: number) => {
    for (let at = parent.get(id); at !== undefined; at = parent.get(at))
      if (matches(at)) return true;
    return false;
  };
  // A recursive or nested match would print the same subtree again under its outer match.
  const roots = profile.nodes.filter((node) => matches(node.id) && !insideMatch(node.id));
  for (const node of roots.sort((a, b) => total(b.id) - total(a.id)).slice(0, 3)) print(node, 0);
  return ["inclusive ms, self ms, function", ...lines].join("\n");
}

if (process.argv[1]?.endsWith("profile-summary.ts")) {
  const [file, filter, ...rest] = process.argv.slice(2);
  if (!file)
    throw new Error("usage: profile-summary.ts <file.cpuprofile> [regex | --tree <regex>]");
  if (filter === "--tree") {
    const [root = ".", depth, minMs] = rest;
    console.log(callTree(file, new RegExp(root), Number(depth ?? 6), Number(minMs ?? 10)));
  } else {
    console.log(summarizeProfile(file, filter ? new RegExp(filter) : undefined));
  }
}
