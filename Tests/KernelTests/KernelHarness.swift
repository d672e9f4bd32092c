import Foundation
import Testing

/// Runs scripts inside Debian's kernel under qemu (Tests/vm/run-in-vm.sh), where /dev/uinput,
/// evdev and virtio-gpu's /dev/dri/card0 are real. Needs qemu-system-x86, busybox-static, cpio,
/// kmod and evemu-tools; without them the tests are skipped, except under CI, where they must run.
enum KernelHarness {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let isAvailable: Bool = {
        let tools = ["/usr/bin/qemu-system-x86_64", "/bin/busybox", "/usr/bin/evemu-device", "/usr/bin/cpio"]
        let present = tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
        if !present && ProcessInfo.processInfo.environment["CI"] != nil {
            // Under CI a missing tool is a broken CI script, not a reason to skip.
            return true
        }
        return present
    }()

    struct Run {
        var status: Int32
        /// The serial console: the kernel's messages and the script's output.
        var console: String
        /// What the VM wrote to its second serial port (/dev/ttyS1), when one was asked for.
        var serial2: String = ""

        /// The text the script printed between two marker lines.
        func section(_ begin: String, _ end: String) -> String? {
            guard let a = console.range(of: begin + "\n"), let b = console.range(of: end + "\n", range: a.upperBound..<console.endIndex) else { return nil }
            return String(console[a.upperBound..<b.lowerBound])
        }
    }

    /// Whether the C test tools can be built (gcc and libc6-dev); under CI they must be.
    static let hasCCompiler: Bool = ProcessInfo.processInfo.environment["CI"] != nil
        || FileManager.default.isExecutableFile(atPath: "/usr/bin/cc")

    /// Builds one of the small C test tools in Tests/vm (`source`, relative to the repository)
    /// into `folder` as `name`, with `flags` (e.g. `$(pkg-config --cflags libdrm)`, `-shared -fPIC`).
    static func buildC(_ source: String, flags: String = "", into folder: URL, as name: String) throws -> String {
        let out = folder.appendingPathComponent(name).path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "cc -O2 -Wall -Werror \(flags) -o \"$1\" \"$2\"", "sh", out, root.appendingPathComponent(source).path]
        try p.run()
        p.waitUntilExit()
        try #require(p.terminationStatus == 0, "cc \(source) failed")
        return out
    }

    /// A release build of `kiosk`, as a kiosk runs it, for what only an optimised build shows (a
    /// debug build allocates where the optimiser would not), with the Swift runtime linked in as the
    /// Debian package ships it (deploy/make-deb.sh). Built once per test process, in a
    /// folder of its own (`.build-release`) so it never waits on the debug build's lock; `.ci/run`
    /// builds it before the tests, so here it is only checked.
    static let releaseKioskBinary: Result<String, any Error> = Result(catching: {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["swift", "build", "-c", "release", "--product", "kiosk", "--static-swift-stdlib", "--scratch-path", ".build-release"]
        p.currentDirectoryURL = root
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        try #require(p.terminationStatus == 0, "swift build -c release --product kiosk --static-swift-stdlib failed:\n\(text)")
        return root.appendingPathComponent(".build-release/release/kiosk").path
    })

    /// Boots the VM, runs `script` (shell text) with `files` in its working directory, and returns the console.
    /// The `kiosk` executable `swift build` put beside the test bundle.
    static let kioskBinary: String = {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [dir, dir.deletingLastPathComponent()] where FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("kiosk").path) {
            return candidate.appendingPathComponent("kiosk").path
        }
        return root.appendingPathComponent(".build/debug/kiosk").path
    }()

    /// `binaries` are host files copied into the working directory as they are (executables with
    /// their shared libraries). With `screendump`, the screen is saved there as a PPM when the
    /// script prints "KIOSK-SCREENDUMP" or runs `screendump` (see run-in-vm.sh).
    /// With `resizableDisplay`, a script line `KIOSK-DISPLAY-SIZE WxH` resizes the display from
    /// the host, which the guest kernel reports as a DRM hotplug (see run-in-vm.sh).
    /// With `network`, the VM has QEMU's user-mode network: this machine's 127.0.0.1 is 10.0.2.2 inside.
    static func run(script: String, files: [String: String], binaries: [String] = [], screendump: String? = nil,
                    secondSerialPort: Bool = false, resizableDisplay: Bool = false, network: Bool = false) throws -> Run {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-vm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let scriptPath = dir.appendingPathComponent("script.sh").path
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        var arguments = [scriptPath]
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {
            let path = dir.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            arguments.append(path)
        }
        arguments += binaries
        let p = Process()
        p.executableURL = root.appendingPathComponent("Tests/vm/run-in-vm.sh")
        p.arguments = arguments
        p.currentDirectoryURL = root
        var environment = ProcessInfo.processInfo.environment
        if let screendump { environment["KIOSK_VM_SCREENDUMP"] = screendump }
        if resizableDisplay { environment["KIOSK_VM_DISPLAY_SIZE"] = "1" }
        if network { environment["KIOSK_VM_NETWORK"] = "1" }
        let serial2Path = dir.appendingPathComponent("serial2.log").path
        if secondSerialPort { environment["KIOSK_VM_SERIAL2"] = serial2Path }
        p.environment = environment
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        // The serial line ends lines with CRLF.
        let console = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        let serial2 = secondSerialPort ? (try? String(contentsOfFile: serial2Path, encoding: .utf8)) ?? "" : ""
        return Run(status: p.terminationStatus, console: console, serial2: serial2.replacingOccurrences(of: "\r\n", with: "\n"))
    }

    /// What `kiosk` printed when run on this machine, and its exit status.
    struct HostRun {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the built `kiosk` on this machine in `directory`, as an integrator replays a trace on
    /// a laptop; its output goes through files there, so neither pipe can fill and stall it.
    static func kiosk(_ arguments: [String], in directory: URL) throws -> HostRun {
        let outPath = directory.appendingPathComponent("kiosk.stdout").path
        let errPath = directory.appendingPathComponent("kiosk.stderr").path
        try #require(FileManager.default.createFile(atPath: outPath, contents: nil))
        try #require(FileManager.default.createFile(atPath: errPath, contents: nil))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: kioskBinary)
        p.arguments = arguments
        p.currentDirectoryURL = directory
        p.standardOutput = FileHandle(forWritingAtPath: outPath)
        p.standardError = FileHandle(forWritingAtPath: errPath)
        try p.run()
        p.waitUntilExit()
        return HostRun(status: p.terminationStatus, stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
                       stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }
}
