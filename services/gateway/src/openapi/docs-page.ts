import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const DOCUMENT_PATH = '/api/openapi.json';
export const DOCS_PATH = '/api/docs';

/** Where the build puts the reference page's renderer, beside the gateway's compiled code. */
export const DOCS_ASSETS_DIR = join(__dirname, '..', 'docs-assets');
export const REDOC_BUNDLE = 'redoc.standalone.js';

/**
 * The page holds no script of its own: the gateway's Content-Security-Policy allows scripts from
 * this origin only, never inline, so both the renderer and the line that starts it are files.
 */
export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>LWS API reference</title>
<style>body { margin: 0; padding: 0; }</style>
</head>
<body>
<noscript>The API reference needs JavaScript. The document itself is at <a href="${DOCUMENT_PATH}">${DOCUMENT_PATH}</a>.</noscript>
<div id="redoc" data-spec-url="${DOCUMENT_PATH}"></div>
<script src="${DOCS_PATH}/${REDOC_BUNDLE}"></script>
<script src="${DOCS_PATH}/start.js"></script>
</body>
</html>
`;

/**
 * Starts Redoc on the document. Search is off: Redoc runs it in a worker made from a blob: URL,
 * which the policy (worker-src falls back to script-src 'self') refuses.
 */
export const START_JS = `'use strict';
(function () {
  var root = document.getElementById('redoc');
  Redoc.init(root.getAttribute('data-spec-url'), { disableSearch: true, expandResponses: '200,201', pathInMiddlePanel: true }, root);
})();
`;

/**
 * The Redoc bundle: the build's copy beside the compiled gateway (what an image ships), else the
 * package in node_modules (the sources run under ts-jest). Undefined when neither is there.
 */
export function redocBundlePath(): string | undefined {
  const built = join(DOCS_ASSETS_DIR, REDOC_BUNDLE);
  if (existsSync(built)) return built;
  try {
    return require.resolve(`redoc/bundles/${REDOC_BUNDLE}`);
  } catch {
    return undefined;
  }
}

/** The only file Redoc fetches from elsewhere: the logo of its "API docs by Redocly" link. */
const REDOC_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
/** An empty image in its place: the policy allows data: images, never another origin's. */
const NO_LOGO = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";

let bundle: string | undefined;

/** The Redoc bundle as the page loads it, read once; undefined when it is not installed. */
export function redocBundle(): string | undefined {
  if (bundle !== undefined) return bundle;
  const path = redocBundlePath();
  if (!path) return undefined;
  bundle = readFileSync(path, 'utf8').split(REDOC_LOGO).join(NO_LOGO);
  return bundle;
}
