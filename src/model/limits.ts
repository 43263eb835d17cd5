/**
 * The limits of docs/api.md ("Limits", and the sections named below), each written once. The
 * TypeBox schemas beside this module document them (and check the ones a schema can check), the
 * domain enforces them with one message each, and the CLI's help and the MCP tools' schemas quote
 * them. Plain numbers with no imports, so the command line reads them without loading TypeBox.
 * Lengths are characters (code points) after trimming.
 */

/** Board, lane, tag and template names. */
export const NAME_MAX = 200;
/** Ticket and ticket-event titles. */
export const TITLE_MAX = 500;
/** Ticket bodies and comment bodies. */
export const BODY_MAX = 200_000;

/** Ticket priorities (1 = low ... 4 = urgent), and the default of a new ticket. */
export const PRIORITY_MIN = 1;
export const PRIORITY_MAX = 4;
export const DEFAULT_PRIORITY = 2;

/** A lane's soft WIP limit (docs/api.md, "Lanes"); null is no limit. */
export const WIP_LIMIT_MIN = 1;
export const WIP_LIMIT_MAX = 10_000;

/** Who claims, asks or answers: compared exactly (docs/api.md, "Coordination for agents"). */
export const ACTOR_MAX = 100;
/** A claim's lease, in seconds (docs/api.md, "Coordination for agents"). */
export const LEASE_MIN_SECONDS = 10;
export const LEASE_MAX_SECONDS = 86_400;
export const LEASE_DEFAULT_SECONDS = 900;

/** Asks (docs/api.md, "Asks"). */
export const QUESTION_MAX = 10_000;
export const ANSWER_TEXT_MAX = 10_000;
export const OPTION_MAX = 200;
export const OPTIONS_MAX = 10;
/** An ask's `?wait=` bounds, in seconds. */
export const WAIT_MIN_SECONDS = 1;
export const WAIT_MAX_SECONDS = 60;

/** Ticket events: source and kind (their title is a TITLE_MAX title). */
export const EVENT_SOURCE_MAX = 100;

/** Templates (docs/api.md, "Templates"). */
export const TEMPLATE_TICKETS_MAX = 200;
export const TEMPLATE_KEY_MAX = 50;
export const TEMPLATE_DESCRIPTION_MAX = 10_000;

/** A limit as the descriptions write it: 10,000 rather than 10000. */
export const grouped = (limit: number): string => limit.toLocaleString("en-US");
