#!/bin/sh
# Checks KioskConfig/TOMLGuard.swift against the toml++ that TOMLKit bundles, with its assertions
# on: every generated text toml++ asserts on must be refused, none it accepts. Needs a C++17
# compiler and `swift build` run once (for .build/checkouts/TOMLKit). A few minutes:
#   Tests/toml-probe/run.sh [random count, default 100000] [seed, default 1]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
${CXX:-c++} -std=c++17 -O1 -w -I"$root/.build/checkouts/TOMLKit/Sources/CTOML/Sources" "$root/Tests/toml-probe/probe.cpp" -o "$work/probe"
# The guard without TOMLKit (its import and the function that calls the parser left out), and the tokenizer it reads with.
sed -e '/^import TOMLKit/d' -e '/Parses `text` with TOMLKit/,/^    }$/d' "$root/Sources/KioskConfig/TOMLGuard.swift" > "$work/TOMLGuard.swift"
swiftc -O "$work/TOMLGuard.swift" "$root/Sources/KioskConfig/TOMLTokenizer.swift" "$root/Tests/toml-probe/main.swift" -o "$work/check"
{ "$work/probe" exhaustive 3; "$work/probe" random "${1:-100000}" "${2:-1}"; } | "$work/check"
