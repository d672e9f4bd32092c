import Foundation
import Testing

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The `kiosk` executable `swift build` put beside the test bundle.
let kioskExecutable: URL = {
    let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for candidate in [dir, dir.deletingLastPathComponent()] {
        let url = candidate.appendingPathComponent("kiosk")
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return repositoryRoot.appendingPathComponent(".build/debug/kiosk")
}()

/// A fresh folder under the temporary directory, removed by the caller when it wants.
func temporaryFolder(_ label: String) throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-\(label)-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}

struct Finished {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs a program to its end and collects what it printed.
func runToEnd(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws -> Finished {
    let p = Process()
    p.executableURL = executable
    p.arguments = arguments
    p.currentDirectoryURL = repositoryRoot
    if let environment { p.environment = environment }
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return Finished(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
}
