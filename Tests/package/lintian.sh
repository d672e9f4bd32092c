#!/bin/sh
# lintian on kiosk's packages: every tag it reports must be one docs/deploying.md ("The package") explains
# (the list below); a new tag fails, so it is fixed or explained before it ships.
#
#   Tests/package/lintian.sh DEB...
#
# Needs lintian (apt-get install lintian).
set -eu
# Explained in docs/deploying.md ("The package"): not uploaded to Debian, so no ITP bug to close; the
# fallbacks to systemctl where init-system-helpers is missing (and the getties' stop); no man
# page yet (kiosk --help, the README and docs/).
explained="initial-upload-closes-no-bugs maintainer-script-calls-systemctl no-manual-page"
status=0
for deb in "$@"; do
    # lintian warns that it runs as root (CI does); --no-tag-display-limit: every occurrence.
    tags=$(lintian --no-tag-display-limit "$deb" 2>/dev/null | sed -n 's/^[EWIPX]: kiosk[^:]*: \([a-z0-9+.-]*\).*/\1/p' | sort -u)
    for tag in $tags; do
        case " $explained " in
            *" $tag "*) echo "lintian: $(basename "$deb"): $tag (explained)" ;;
            *) echo "lintian: $(basename "$deb"): $tag is new: fix it, or explain it in docs/deploying.md (\"The package\") and here"; status=1 ;;
        esac
    done
done
exit $status
