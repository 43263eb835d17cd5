import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { remoteApiBase } from "../../src/providers/api-base.js";
import {
  locateRemoteIssue,
  RemoteIssueInputError,
  type RemoteIssueReference,
} from "../../src/providers/issue-locator.js";

function rejects(input: RemoteIssueReference, message: string) {
  assert.throws(
    () => locateRemoteIssue(input),
    (error: unknown) => error instanceof RemoteIssueInputError && error.message === message,
    `expected "${message}"`,
  );
}

const target = (provider: string, instanceUrl: string, projectKey: string, issueKey: string) => ({
  provider,
  instanceUrl,
  resourceType: "issue",
  projectKey,
  issueKey,
});

describe("github references", () => {
  test("an issue url gives instance, owner/repo and number", () => {
    assert.deepEqual(
      locateRemoteIssue({
        provider: "github",
        url: "https://github.com/octo-org/hello.world/issues/42",
      }),
      target("github", "https://github.com", "octo-org/hello.world", "42"),
    );
  });

  test("query, fragment and trailing slash do not matter; the host is lowercased", () => {
    assert.deepEqual(
      locateRemoteIssue({
        provider: "github",
        url: "https://GitHub.com/octo/hello/issues/7/?x=1#issuecomment-9",
      }),
      target("github", "https://github.com", "octo/hello", "7"),
    );
  });

  test("an Enterprise url gives the Enterprise origin", () => {
    assert.deepEqual(
      locateRemoteIssue({
        provider: "github",
        url: "https://ghe.example.com:8443/team/app/issues/3",
      }),
      target("github", "https://ghe.example.com:8443", "team/app", "3"),
    );
  });

  test("urls that are not github issue urls are rejected", () => {
    for (const url of [
      "https://github.com/octo/hello/pull/7",
      "https://github.com/octo/hello/issues",
      "https://github.com/octo/hello/issues/abc",
      "https://github.com/octo/hello/issues/0",
      "https://github.com/octo/issues/7",
      "https://github.com/org/group/repo/issues/7",
      "https://github.com/octo/hello/-/issues/7",
    ]) {
      rejects({ provider: "github", url }, "url is not a github issue url");
    }
  });

  test("url scheme and syntax are checked", () => {
    rejects(
      { provider: "github", url: "http://github.com/octo/hello/issues/1" },
      "url must use https",
    );
    rejects(
      { provider: "github", url: "github.com/octo/hello/issues/1" },
      "url is not a valid url",
    );
    rejects(
      { provider: "github", url: "https://me:pw@github.com/octo/hello/issues/1" },
      "url must not contain a user name or password",
    );
  });

  test("http is accepted for loopback hosts (local fakes)", () => {
    assert.deepEqual(
      locateRemoteIssue({ provider: "github", url: "http://127.0.0.1:4567/octo/hello/issues/1" }),
      target("github", "http://127.0.0.1:4567", "octo/hello", "1"),
    );
  });

  test("keys default the instance to https://github.com and normalise the issue number", () => {
    assert.deepEqual(
      locateRemoteIssue({ provider: "github", projectKey: "octo/hello", issueKey: "007" }),
      target("github", "https://github.com", "octo/hello", "7"),
    );
  });

  test("keys are validated", () => {
    rejects({ provider: "github", issueKey: "1" }, "projectKey is required");
    rejects({ provider: "github", projectKey: "octo/hello" }, "issueKey is required");
    rejects(
      { provider: "github", projectKey: "octo", issueKey: "1" },
      "projectKey must be owner/repo for github",
    );
    rejects(
      { provider: "github", projectKey: "a/b/c", issueKey: "1" },
      "projectKey must be owner/repo for github",
    );
    for (const issueKey of ["0", "-1", "1.5", "12a", "1e3", "9999999999999999"]) {
      rejects(
        { provider: "github", projectKey: "octo/hello", issueKey },
        "issueKey must be a positive number",
      );
    }
    rejects(
      {
        provider: "github",
        instanceUrl: "https://ghe.example.com/api/v3",
        projectKey: "o/r",
        issueKey: "1",
      },
      "instanceUrl must be an origin without a path for github",
    );
  });

  test("fields given beside the url must agree with it", () => {
    const url = "https://ghe.example.com/octo/hello/issues/5";
    assert.deepEqual(
      locateRemoteIssue({
        provider: "github",
        url,
        instanceUrl: "https://GHE.example.com/",
        projectKey: "octo/hello",
        issueKey: "5",
      }),
      target("github", "https://ghe.example.com", "octo/hello", "5"),
    );
    rejects(
      { provider: "github", url, instanceUrl: "https://github.com" },
      "url does not belong to instanceUrl",
    );
    assert.equal(
      locateRemoteIssue({ provider: "github", url, projectKey: "Octo/Hello" }).projectKey,
      "octo/hello",
      "owner and repo compare case-insensitively",
    );
    rejects({ provider: "github", url, projectKey: "octo/other" }, "projectKey does not match url");
    rejects({ provider: "github", url, issueKey: "6" }, "issueKey does not match url");
  });

  test("blank optional fields count as absent", () => {
    assert.deepEqual(
      locateRemoteIssue({
        provider: "github",
        url: " ",
        instanceUrl: "",
        projectKey: "octo/hello",
        issueKey: " 3 ",
      }),
      target("github", "https://github.com", "octo/hello", "3"),
    );
  });
});

describe("gitlab references", () => {
  test("nested groups are part of the project path", () => {
    assert.deepEqual(
      locateRemoteIssue({
        provider: "gitlab",
        url: "https://gitlab.com/group/sub.group/my-project/-/issues/12",
      }),
      target("gitlab", "https://gitlab.com", "group/sub.group/my-project", "12"),
    );
  });

  test("work item urls give the same iid as the issue", () => {
    assert.deepEqual(
      locateRemoteIssue({
        provider: "gitlab",
        url: "https://gitlab.example.com/team/app/-/work_items/31#note_5",
      }),
      target("gitlab", "https://gitlab.example.com", "team/app", "31"),
    );
  });

  test("group-level pages and urls without /-/ are rejected", () => {
    for (const url of [
      "https://gitlab.com/groups/team/-/work_items/4",
      "https://gitlab.com/team/app/issues/4",
      "https://gitlab.com/app/-/issues/4",
      "https://gitlab.com/team/app/-/merge_requests/4",
      "https://gitlab.com/team/app/-/issues/",
    ]) {
      rejects({ provider: "gitlab", url }, "url is not a gitlab issue url");
    }
  });

  test("keys default the instance to https://gitlab.com", () => {
    assert.deepEqual(
      locateRemoteIssue({ provider: "gitlab", projectKey: "a/b/c", issueKey: "9" }),
      target("gitlab", "https://gitlab.com", "a/b/c", "9"),
    );
    rejects(
      { provider: "gitlab", projectKey: "lonely", issueKey: "9" },
      "projectKey must be a project path like group/project for gitlab",
    );
  });
});

describe("redmine references", () => {
  test("the url's path before /issues/<n> is the instance sub-path", () => {
    assert.deepEqual(
      locateRemoteIssue({
        provider: "redmine",
        url: "https://Tracker.example.com/redmine/issues/42?tab=history#note-2",
      }),
      target("redmine", "https://tracker.example.com/redmine", "", "42"),
    );
    assert.deepEqual(
      locateRemoteIssue({ provider: "redmine", url: "https://redmine.example.com/issues/8" }),
      target("redmine", "https://redmine.example.com", "", "8"),
    );
  });

  test("an instance is required", () => {
    rejects({ provider: "redmine", issueKey: "42" }, "instanceUrl or url is required for redmine");
  });

  test("keys need only instanceUrl and issueKey; a given projectKey is kept", () => {
    assert.deepEqual(
      locateRemoteIssue({
        provider: "redmine",
        instanceUrl: "https://tracker.example.com/redmine/",
        issueKey: "42",
      }),
      target("redmine", "https://tracker.example.com/redmine", "", "42"),
    );
    assert.deepEqual(
      locateRemoteIssue({
        provider: "redmine",
        instanceUrl: "https://t.example.com",
        projectKey: "ops",
        issueKey: "1",
      }),
      target("redmine", "https://t.example.com", "ops", "1"),
    );
  });

  test("url and instanceUrl must agree, sub-path included", () => {
    rejects(
      {
        provider: "redmine",
        url: "https://t.example.com/redmine/issues/1",
        instanceUrl: "https://t.example.com",
      },
      "url does not belong to instanceUrl",
    );
    rejects(
      { provider: "redmine", url: "https://t.example.com/projects/x" },
      "url is not a redmine issue url",
    );
  });
});

test("unknown providers are rejected", () => {
  rejects(
    { provider: "jira", url: "https://jira.example.com/browse/X-1" },
    "provider must be one of github, gitlab, redmine",
  );
  rejects(
    { provider: "GitHub", projectKey: "o/r", issueKey: "1" },
    "provider must be one of github, gitlab, redmine",
  );
});

test("api bases", () => {
  assert.equal(remoteApiBase("github", "https://github.com"), "https://api.github.com");
  assert.equal(
    remoteApiBase("github", "https://ghe.example.com"),
    "https://ghe.example.com/api/v3",
  );
  assert.equal(remoteApiBase("gitlab", "https://gitlab.com"), "https://gitlab.com/api/v4");
  assert.equal(
    remoteApiBase("redmine", "https://t.example.com/redmine"),
    "https://t.example.com/redmine",
  );
});
