/**
 * Gives back the memory tack's start-up used and no longer needs. Starting allocates ~50 MB
 * (modules, route tables, schemas) that mostly survives its first collections, so V8 grows the
 * young generation to its 16 MiB semi-space maximum on the way (32 MiB committed, ~16 MiB of it
 * resident) and keeps it: V8 shrinks it only in the memory reducer's collection, which waits
 * for several seconds of low allocation (~15 s after the start line), so an idle server read
 * ~100 MiB RSS for its first seconds and ~85 MiB after (docs/performance.md, "Start-up and memory
 * at rest"). One memory-reducing collection once everything is set up does that at once.
 *
 * V8's only way to ask for that collection from JavaScript without `--expose-gc` is the
 * inspector protocol's `HeapProfiler.collectGarbage` (a low-memory notification), over an
 * in-process session: no port is opened and nothing else of the protocol is used.
 */
export async function releaseStartupMemory(): Promise<void> {
  let inspector: typeof import("node:inspector");
  try {
    inspector = await import("node:inspector");
  } catch {
    return; // a Node built without the inspector: nothing to ask
  }
  const session = new inspector.Session();
  try {
    session.connect();
    await new Promise<void>((resolve) => {
      // The collection runs as a task after this call; the session is closed only once its
      // answer has been handled (closing it within the callback leaves the process hanging).
      session.post("HeapProfiler.collectGarbage", () => setImmediate(resolve));
    });
  } catch {
    // Another session may already hold the inspector; the memory reducer still runs later.
  } finally {
    session.disconnect();
  }
}
