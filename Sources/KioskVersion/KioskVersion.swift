/// kiosk's version: VERSION plus the commit where the build had a git checkout
/// (Tools/version.sh, run by Plugins/KioskVersionPlugin when a commit or an edit may change it). `kiosk --version`, the
/// log's first line, MQTT's `sw_version` and the Debian package's version all read it.
public enum KioskVersion {
    /// `0.1.0`, or `0.1.0+12.g3f49a9e[.dirty]` from a checkout 12 commits past the release.
    public static let current = String(stampedVersion.dropFirst(marker.count))

    /// What the stamped text starts with: deploy/make-deb.sh finds the version in a binary of any
    /// architecture by it.
    static let marker = "kiosk-version "
}
