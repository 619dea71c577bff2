#!/bin/sh
# Runs a script on the Node.js the images ship (.nvmrc), fetched the first time; see node-runtime.mjs.
#   sh scripts/on-node.sh scripts/test.mjs [args...]
set -e
bin="$(node "$(dirname "$0")/node-runtime.mjs" --bin)"
if [ -n "$bin" ]; then
  PATH="$bin:$PATH"
  export PATH
fi
exec node "$@"
