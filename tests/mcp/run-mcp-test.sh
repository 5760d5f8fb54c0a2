#!/bin/sh
# run-mcp-test.sh: runs test-mcp.mjs when node and the MCP client are there.
#
# The client comes from npm (package.json beside this file): .ci/run
# installs it and names its node_modules in CHRONO_MCP_NODE_MODULES; a
# developer can run `npm ci` here instead. Without them the test is skipped
# (exit 77), except when CHRONO_MCP_REQUIRE_CLIENT is set, as in CI.
here=$(dirname "$0")
modules=${CHRONO_MCP_NODE_MODULES:-$here/node_modules}
missing=
if ! command -v node > /dev/null 2>&1; then
  missing="node is not installed (apt-get install nodejs npm)"
elif [ ! -f "$modules/@modelcontextprotocol/sdk/package.json" ]; then
  missing="the MCP client is not installed in $modules (run npm ci in tests/mcp)"
elif [ ! -d "$CHRONO_TRACES_DIR" ]; then
  echo "SKIP: no real traces in $CHRONO_TRACES_DIR"
  exit 77
fi
if [ -n "$missing" ]; then
  if [ -n "$CHRONO_MCP_REQUIRE_CLIENT" ]; then
    echo "FAIL: $missing"
    exit 1
  fi
  echo "SKIP: $missing"
  exit 77
fi
CHRONO_MCP_NODE_MODULES=$(cd "$modules" && pwd)
export CHRONO_MCP_NODE_MODULES
exec node --test-reporter=spec "$here/test-mcp.mjs"
