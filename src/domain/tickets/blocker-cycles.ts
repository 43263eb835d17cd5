/**
 * The link that closes a blocker cycle, if any: `edges[node]` lists the nodes that block `node`.
 * Iterative depth-first search, so a chain of thousands of tickets cannot overflow the stack.
 * Answers the node and the index in its list of the blocker that closes the cycle.
 */
export function findBlockerCycle(
  edges: readonly (readonly number[])[],
): { node: number; edge: number } | undefined {
  const state = new Uint8Array(edges.length); // 0 unseen, 1 on the current path, 2 done
  for (let start = 0; start < edges.length; start++) {
    if (state[start] !== 0) continue;
    const stack: Array<{ node: number; next: number }> = [{ node: start, next: 0 }];
    state[start] = 1;
    while (stack.length > 0) {
      const frame = stack[stack.length - 1] as { node: number; next: number };
      const blockers = edges[frame.node] as readonly number[];
      if (frame.next === blockers.length) {
        state[frame.node] = 2;
        stack.pop();
        continue;
      }
      const blocker = blockers[frame.next++] as number;
      if (state[blocker] === 1) return { node: frame.node, edge: frame.next - 1 };
      if (state[blocker] === 0) {
        state[blocker] = 1;
        stack.push({ node: blocker, next: 0 });
      }
    }
  }
  return undefined;
}
