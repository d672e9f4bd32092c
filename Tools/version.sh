#!/bin/sh
# kiosk's version, the one place it comes from: VERSION (the release, by hand), plus where the
# commit is when this is a git checkout. Printed, or with --swift FILE written as Swift source
# (by Plugins/KioskVersionPlugin when VERSION, git's state or a source file changed; FILE is
# rewritten only when the text changes, so an unchanged version recompiles nothing).
#
#   Tools/version.sh [--swift FILE]
#
#   0.1.0                  no checkout (a release tarball), or HEAD is the clean tag v0.1.0
#   0.1.0+12.g3f49a9e      12 commits after the tag v0.1.0 (without the tag: after the commit
#                          that last changed VERSION), at commit 3f49a9e
#   0.1.0+12.g3f49a9e.dirty  the same with uncommitted changes
#
# Debian's version order sorts these as made: 0.1.0 < 0.1.0+12.g... < 0.1.0+13.g...
# deploy/make-deb.sh reads the version from the binary it packages, not from here.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
release=$(tr -d ' \n' < "$top/VERSION")
case $release in
    [0-9]*) ;;
    *) echo "version.sh: $top/VERSION must start with a digit (a Debian version); it holds '$release'" >&2; exit 2 ;;
esac
version=$release
# Only the project's own checkout: not a git repository that happens to hold an export of it.
if command -v git >/dev/null 2>&1 && [ "$(git -c safe.directory="$top" -C "$top" rev-parse --show-toplevel 2>/dev/null)" = "$top" ]; then
    if described=$(git -c safe.directory="$top" -C "$top" describe --tags --match "v$release" --long --dirty --abbrev=7 2>/dev/null); then
        # v0.1.0-12-g3f49a9e[-dirty]
        rest=${described#"v$release"-}
        count=${rest%%-*}; rest=${rest#*-}
        hash=${rest%%-*}
        case $described in *-dirty) dirty=.dirty ;; *) dirty= ;; esac
        if [ "$count" != 0 ] || [ -n "$dirty" ]; then version="$release+$count.$hash$dirty"; fi
    elif hash=$(git -c safe.directory="$top" -C "$top" describe --always --dirty --abbrev=7 2>/dev/null); then
        since=$(git -c safe.directory="$top" -C "$top" log -1 --format=%H -- VERSION 2>/dev/null || true)
        count=$(git -c safe.directory="$top" -C "$top" rev-list --count "${since:+$since..}HEAD" 2>/dev/null || echo 0)
        case $hash in *-dirty) dirty=.dirty; hash=${hash%-dirty} ;; *) dirty= ;; esac
        version="$release+$count.g$hash$dirty"
    fi
fi
if [ "${1:-}" = --swift ]; then
    file=${2:?version.sh: --swift needs a file}
    # The marker lets deploy/make-deb.sh read the version out of a binary of any architecture.
    text="// Written by Tools/version.sh at build time; not in git.
let stampedVersion = \"kiosk-version $version\""
    if [ "$(cat "$file" 2>/dev/null)" != "$text" ]; then
        mkdir -p "$(dirname "$file")"
        printf '%s\n' "$text" > "$file.tmp" && mv "$file.tmp" "$file"
    fi
else
    echo "$version"
fi
