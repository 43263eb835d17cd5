import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The name of the access token a request was made with, for the activity entries its writes
 * record (`details.via`, docs/api.md, "Access tokens"). Carried implicitly rather than through
 * every service signature: the HTTP layer runs a token's request inside `actingAs`, and the one
 * place that builds activity rows reads it. Requests without a token run outside any store: no
 * `via`.
 */
const acting = new AsyncLocalStorage<string>();

export function actingAs<T>(tokenName: string, run: () => T): T {
  return acting.run(tokenName, run);
}

export function actingTokenName(): string | undefined {
  return acting.getStore();
}
