import Foundation
import PackagePlugin

/// Writes kiosk's version (Tools/version.sh: VERSION plus `git describe`) into the KioskVersion
/// module before every build. A prebuild command, because a commit changes the version without
/// changing any file a build command could name as its input; the script rewrites the file only
/// when the text changes, so an unchanged version recompiles nothing. It runs `/bin/sh`, not a
/// tool built from source: nothing to compile before the first build, and the same under a
/// cross-compilation (a prebuild command may only run what the machine already has).
@main
struct KioskVersionPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("Generated")
        let script = context.package.directoryURL.appendingPathComponent("Tools/version.sh")
        return [.prebuildCommand(
            displayName: "kiosk's version (Tools/version.sh)",
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: [script.path, "--swift", output.appendingPathComponent("StampedVersion.swift").path],
            outputFilesDirectory: output
        )]
    }
}
