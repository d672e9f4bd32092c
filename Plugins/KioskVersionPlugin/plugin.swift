import Foundation
import PackagePlugin

/// Writes kiosk's version (Tools/version.sh: VERSION plus `git describe`) into the KioskVersion
/// module. A build command whose inputs are everything the version depends on: VERSION, the
/// script, git's HEAD, its log and index (a commit, a checkout, a tag), and every source file of
/// the package (an edit makes the checkout dirty). SwiftPM runs it when one of them changed; the
/// script rewrites the file only when the text changes, so nothing recompiles otherwise. (A
/// prebuild command is not run when SwiftPM finds its build plan still valid, so a commit alone
/// would leave the old version in the binary.) It runs `/bin/sh`, not a tool built from source:
/// nothing to compile before the first build, and the same under a cross-compilation.
@main
struct KioskVersionPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let top = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("StampedVersion.swift")
        let script = top.appendingPathComponent("Tools/version.sh")
        var inputs = [top.appendingPathComponent("VERSION"), script]
        if let git = Self.gitDirectory(of: top) {
            inputs += ["HEAD", "index", "logs/HEAD", "packed-refs"].map { git.appendingPathComponent($0) }
        }
        for case let module as SourceModuleTarget in context.package.targets {
            inputs += module.sourceFiles.map(\.url)
        }
        inputs = inputs.filter { FileManager.default.fileExists(atPath: $0.path) }
        return [.buildCommand(
            displayName: "kiosk's version (Tools/version.sh)",
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: [script.path, "--swift", output.path],
            inputFiles: inputs,
            outputFiles: [output]
        )]
    }

    /// The checkout's git folder: `.git`, or where a worktree's `.git` file points.
    static func gitDirectory(of top: URL) -> URL? {
        let dotGit = top.appendingPathComponent(".git")
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dotGit.path, isDirectory: &isFolder) else { return nil }
        if isFolder.boolValue { return dotGit }
        guard let text = try? String(contentsOf: dotGit, encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("gitdir: ") }) else { return nil }
        let path = String(line.dropFirst("gitdir: ".count))
        return path.hasPrefix("/") ? URL(fileURLWithPath: path) : top.appendingPathComponent(path)
    }
}
