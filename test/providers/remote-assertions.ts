// Assertions shared by the adapter tests.

import assert from "node:assert/strict";
import { inspect } from "node:util";
import { RemoteError, type RemoteFailureStatus } from "../../src/providers/types.js";

/**
 * Awaits a call that must fail with a RemoteError of the given status, checks that none of the
 * secrets shows up in its message or anywhere in its inspected form, and returns it.
 */
export async function expectRemoteError(
  call: Promise<unknown>,
  status: RemoteFailureStatus,
  secrets: readonly string[],
): Promise<RemoteError> {
  let caught: unknown;
  try {
    await call;
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof RemoteError, `expected a RemoteError, got ${inspect(caught)}`);
  assert.equal(caught.status, status, `unexpected status for: ${caught.message}`);
  assertNoSecrets(caught, secrets);
  return caught;
}

export function assertNoSecrets(error: Error, secrets: readonly string[]): void {
  const renderings = [error.message, String(error), inspect(error, { depth: 5, showHidden: true })];
  for (const secret of secrets) {
    for (const text of renderings) assert.ok(!text.includes(secret), `secret leaked into: ${text}`);
  }
}
