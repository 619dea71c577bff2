import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOCS_ASSETS_DIR, REDOC_BUNDLE } from './docs-page';
import { buildOpenApiDocument, DOCUMENT_FILE } from './document';

/**
 * The gateway build's last step: the OpenAPI document (dist/openapi.json), and the reference
 * page's renderer copied beside the compiled code, so an image serves both without the
 * development dependencies.
 */
function main() {
  writeFileSync(DOCUMENT_FILE, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
  mkdirSync(DOCS_ASSETS_DIR, { recursive: true });
  const bundle = require.resolve(`redoc/bundles/${REDOC_BUNDLE}`);
  copyFileSync(bundle, join(DOCS_ASSETS_DIR, REDOC_BUNDLE));
  copyFileSync(`${bundle}.LICENSE.txt`, join(DOCS_ASSETS_DIR, `${REDOC_BUNDLE}.LICENSE.txt`));
  process.stdout.write(`wrote ${DOCUMENT_FILE} and ${DOCS_ASSETS_DIR}\n`);
}

main();
