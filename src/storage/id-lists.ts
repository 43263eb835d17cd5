/**
 * A column tested against a list of ids bound as one parameter, a JSON array
 * (`JSON.stringify(ids)`): one prepared statement serves any number of ids, where `IN (?, ?, …)`
 * needs a statement per length and stops at SQLite's limit of bound parameters.
 */
export const IN_IDS = "IN (SELECT value FROM json_each(?))";
