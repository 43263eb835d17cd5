import type { Command } from "commander";
import { chooseBoard } from "../client/board-choice.js";
import { clientCommand, groupCommand, handler, laneFlag, parseId, table } from "./command-kit.js";

// Remote tracking: GitHub, GitLab and Redmine issues linked to tickets.

export function registerRemoteCommands(program: Command): void {
  const remote = groupCommand(program, "remote", "Track GitHub, GitLab and Redmine issues.", [
    "tack remote providers",
    "tack remote diagnose https://github.com/owner/repo/issues/7",
    "tack remote import https://github.com/owner/repo/issues/7 --lane todo",
  ]);

  clientCommand(remote, "providers", "Which providers have a credential configured.", [
    "tack remote providers",
  ]).action(
    handler(async ({ client, output }) => {
      const result = await client.remoteProviders();
      output.emit(
        result,
        result.providers.map((one) => one.id),
        () =>
          table(
            ["PROVIDER", "STATUS"],
            result.providers.map((one) => [one.id, one.status]),
          ),
      );
    }),
  );

  clientCommand(
    remote,
    "diagnose <issue-url>",
    "Check that tack can reach an issue with its credential.",
    [
      "tack remote diagnose https://gitlab.com/group/project/-/issues/3",
      "tack remote diagnose https://git.example.com/team/app/-/issues/9 --provider gitlab",
    ],
  )
    .option("--provider <id>", PROVIDER_HELP)
    .action(
      handler(async ({ client, flags, output }, issueUrl) => {
        const result = await client.remoteDiagnose(reference(issueUrl as string, flags.provider));
        output.emit(
          result,
          [],
          () =>
            `${result.provider}: ${result.status}${result.message ? ` (${result.message})` : ""}`,
        );
        if (result.status !== "reachable") process.exitCode = 1;
      }),
    );

  clientCommand(
    remote,
    "preview <issue-url>",
    "Show what importing an issue would create.",
    ["tack remote preview https://github.com/owner/repo/issues/7"],
    { board: true },
  )
    .option("--provider <id>", PROVIDER_HELP)
    .action(
      handler(async ({ client, board, flags, output }, issueUrl) => {
        const boardId = await chooseBoard(client, board);
        // The preview validates the import it describes, lane included: the first lane.
        const [lane] = await client.listLanes(boardId);
        const preview = await client.remotePreview(boardId, {
          ...reference(issueUrl as string, flags.provider),
          laneId: lane?.id,
        });
        output.emit(
          preview,
          [],
          () =>
            `${preview.displayRef}: ${preview.title} (${preview.state ?? "no state"})${preview.duplicate ? ` — already tracked by #${preview.existingTicketId}` : ""}`,
        );
      }),
    );

  clientCommand(
    remote,
    "import <issue-url>",
    "Import an issue as a tracked ticket.",
    ["tack remote import https://github.com/owner/repo/issues/7 --lane todo --backlink"],
    { board: true },
  )
    .option("--lane <lane>", "lane id or name (default: the first lane)")
    .option("--backlink", "post a comment on the issue naming the ticket")
    .option("--provider <id>", PROVIDER_HELP)
    .option("--idempotency-key <key>", "retry-safe: a repeat with this key imports nothing new")
    .action(
      handler(async ({ client, board, flags, output }, issueUrl) => {
        const boardId = await chooseBoard(client, board);
        const lanes = await client.listLanes(boardId);
        const lane = laneFlag(lanes, flags.lane) ?? lanes[0];
        const imported = await client.remoteImport(
          boardId,
          {
            ...reference(issueUrl as string, flags.provider),
            laneId: lane?.id,
            ...(flags.backlink ? { postBacklinkComment: true } : {}),
          },
          flags.idempotencyKey as string | undefined,
        );
        output.emit(
          imported,
          [imported.id],
          () => `imported ${imported.remote?.displayRef} as #${imported.id}`,
        );
      }),
    );

  clientCommand(remote, "refresh <ticket>", "Fetch a tracked issue again.", [
    "tack remote refresh 42",
  ]).action(
    handler(async ({ client, output }, id) => {
      const refreshed = await client.remoteRefresh(parseId(id as string, "ticket"));
      output.emit(
        refreshed,
        [refreshed.id],
        () => `refreshed #${refreshed.id} from ${refreshed.remote?.displayRef}`,
      );
    }),
  );

  clientCommand(remote, "push <comment>", "Post a comment to the ticket's tracked issue.", [
    "tack remote push 7",
  ]).action(
    handler(async ({ client, output }, id) => {
      const pushed = await client.pushComment(parseId(id as string, "comment"));
      output.emit(pushed, [pushed.id], () => `pushed comment ${pushed.id} (${pushed.sync.status})`);
    }),
  );
}

const PROVIDER_HELP = "github, gitlab or redmine (default: guessed from the URL's host)";

/** An issue URL names provider, instance, project and issue at once. */
function reference(issueUrl: string, given?: unknown): Record<string, unknown> {
  if (typeof given === "string") return { provider: given, url: issueUrl };
  const host = (() => {
    try {
      return new URL(issueUrl).hostname;
    } catch {
      return "";
    }
  })();
  const provider = host.includes("github")
    ? "github"
    : host.includes("gitlab") || issueUrl.includes("/-/")
      ? "gitlab"
      : "redmine";
  return { provider, url: issueUrl };
}
