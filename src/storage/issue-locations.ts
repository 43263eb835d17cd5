import type { IssueLocation } from "../model/references.js";

/**
 * The columns of an issue's location that `remote_links` and `external_references` share, as
 * read, and the model's fields they become (IssueLocation, src/model/references.ts).
 */
export interface IssueLocationRow {
  provider: string;
  instance_url: string;
  resource_type: string;
  project_key: string;
  issue_key: string;
  display_ref: string;
  url: string;
}

export const issueLocationOf = (row: IssueLocationRow): IssueLocation => ({
  provider: row.provider,
  instanceUrl: row.instance_url,
  resourceType: row.resource_type,
  projectKey: row.project_key,
  issueKey: row.issue_key,
  displayRef: row.display_ref,
  url: row.url,
});
