/**
 * Board positions become contiguous (0..n-1 in list order): clients order boards by them, and
 * deleting a board now closes its gap. Databases written before left gaps where boards were
 * deleted; renumbering in the existing order keeps every board where it was listed. (The ranks
 * are computed before any row changes: a window function materializes its subquery.)
 */
export const boardPositionsContiguous = `
UPDATE boards SET position = ranked.rank
FROM (SELECT id, row_number() OVER (ORDER BY position, id) - 1 AS rank FROM boards) AS ranked
WHERE boards.id = ranked.id;
`;
