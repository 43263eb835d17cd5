import { createHash } from "node:crypto";

/**
 * The page a browser gets, with its 401, when it opens tack without a usable session
 * (docs/api.md, "Access tokens"). The web UI's own files are behind the token like everything else,
 * so this page is self-contained: its script and style are inline and allowed by their hashes in
 * its Content-Security-Policy (no other inline code can run). It exchanges the token for the
 * session cookie (`POST /api/session`) and reloads, which then serves the UI.
 */

const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center;
  background: light-dark(#f6f7f9, #111317); color: light-dark(#1b1f24, #e6e8eb); }
main { width: min(24rem, calc(100vw - 2rem)); padding: 1.5rem; border-radius: 8px;
  background: light-dark(#fff, #1a1d22); box-shadow: 0 1px 4px rgb(0 0 0 / 0.15); }
h1 { font-size: 1.25rem; margin: 0 0 0.5rem; }
p { margin: 0 0 1rem; line-height: 1.4; }
label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
input { box-sizing: border-box; width: 100%; padding: 0.5rem; font: inherit;
  border: 1px solid light-dark(#c5cad3, #3a3f47); border-radius: 6px; background: inherit; color: inherit; }
button { margin-top: 0.75rem; padding: 0.5rem 1rem; font: inherit; border: 0; border-radius: 6px;
  background: #2f6fdb; color: #fff; cursor: pointer; }
[role="alert"] { color: light-dark(#b3261e, #ff8a80); min-height: 1.4em; margin: 0.75rem 0 0; }
code { font-size: 0.9em; }
`;

const SCRIPT = `
const form = document.getElementById("sign-in");
const field = document.getElementById("token");
const status = document.getElementById("status");
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  status.textContent = "";
  let response;
  try {
    response = await fetch("/api/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: field.value.trim() }),
    });
  } catch {
    status.textContent = "tack is not reachable.";
    return;
  }
  if (response.status === 204) {
    field.value = "";
    location.reload();
    return;
  }
  if (response.status === 429) status.textContent = "Too many failed attempts: wait a minute, then try again.";
  else if (response.status === 401) status.textContent = "That token was not accepted (unknown, revoked or expired).";
  else status.textContent = "Signing in failed (" + response.status + ").";
  field.select();
});
`;

const hash = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

export const SIGN_IN_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${hash(SCRIPT)}`,
  `style-src ${hash(STYLE)}`,
  "connect-src 'self'",
  "img-src data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

export const SIGN_IN_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · tack</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Sign in to tack</h1>
<p>This tack asks for an access token. Its owner makes one with <code>tack token create</code>.</p>
<form id="sign-in">
<label for="token">Access token</label>
<input id="token" name="token" type="password" autocomplete="current-password" required autofocus spellcheck="false">
<button type="submit">Sign in</button>
<p id="status" role="alert"></p>
</form>
</main>
<script type="module">${SCRIPT}</script>
</body>
</html>
`;
