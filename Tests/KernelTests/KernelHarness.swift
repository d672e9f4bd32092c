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
    static func buildC(_ source: String, flags: String = "", into folder: URL, as name: String) async throws -> String {
        let out = folder.appendingPathComponent(name).path
        let cc = try await shell("/bin/sh", ["-c", "cc -O2 -Wall -Werror \(flags) -o \"$1\" \"$2\"", "sh", out, root.appendingPathComponent(source).path])
        guard cc.status == 0 else { throw Failure(description: "cc \(source) failed (status \(cc.status)):\n\(cc.output)") }
        return out
    }

    /// What went wrong before a VM's script could run, said by the error itself: thrown inside a
    /// suite's VM task, an `#require` would be recorded against whichever test started the task.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A release build of `kiosk`, as a kiosk runs it, for what only an optimised build shows (a
    /// debug build allocates where the optimiser would not), with the Swift runtime linked in as the
    /// Debian package ships it (deploy/make-deb.sh). Built once per test process, in a
    /// folder of its own (`.build-release`) so it never waits on the debug build's lock; `.ci/run`
    /// builds it before the tests, so here it is only checked.
    static let releaseKioskBinary = Task<String, any Error> {
        let built = try await shell("/usr/bin/env", ["swift", "build", "-c", "release", "--product", "kiosk", "--static-swift-stdlib",
                                                     "--scratch-path", ".build-release"])
        guard built.status == 0 else {
            throw Failure(description: "swift build -c release --product kiosk --static-swift-stdlib failed:\n\(built.output)")
        }
        return root.appendingPathComponent(".build-release/release/kiosk").path
    }

    /// How many VMs run at once. Each is qemu emulating a CPU (TCG), busy about two thirds of its
    /// time (the rest its scripts' waits), so two keep this 2-core machine's cores busy while the
    /// other test targets run beside them. A test waits for a place without holding a thread:
    /// tests that blocked a thread each while their VM ran held both of Swift Testing's threads
    /// here, and the VMs ran one after the other.
    static let places = Places(2)

    /// Places for VMs, given in the order asked for, except that a `first` request (the long
    /// systemd boots) goes before the others waiting: started last, one would end the run alone.
    actor Places {
        private var free: Int
        private var waiting: [(first: Bool, resume: CheckedContinuation<Void, Never>)] = []

        init(_ count: Int) { free = count }

        func take(first: Bool) async {
            if free > 0 {
                free -= 1
                return
            }
            await withCheckedContinuation { resume in
                let at = first ? (waiting.firstIndex { !$0.first } ?? waiting.endIndex) : waiting.endIndex
                waiting.insert((first, resume), at: at)
            }
        }

        func give() {
            if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume.resume() }
        }
    }

    /// A suite trait: the suite's VM runs (`vm`, which waits for the static task that runs it)
    /// as the suite begins, and its test cases only after it has ended. Swift Testing runs a few
    /// test cases at a time (twice the cores) and a suite's own scope outside that count: a test
    /// case waiting for a VM would hold one of those places all the while, and the VMs, and the
    /// other targets' tests, would wait on each other.
    struct AfterItsVM: SuiteTrait, TestScoping {
        let vm: @Sendable () async -> Void

        func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
            await vm()
            try await function()
        }
    }

    /// Runs `body` (a VM's whole run) in one of the `places`.
    static func inPlace<T>(first: Bool = false, _ body: () async throws -> T) async throws -> T {
        await places.take(first: first)
        do {
            let value = try await body()
            await places.give()
            return value
        } catch {
            await places.give()
            throw error
        }
    }

    /// Starts `p` and waits for its end without holding a thread; its status.
    static func finish(_ p: Process) async throws -> Int32 {
        try await withCheckedThrowingContinuation { (ended: CheckedContinuation<Int32, any Error>) in
            p.terminationHandler = { ended.resume(returning: $0.terminationStatus) }
            do {
                try p.run()
            } catch {
                p.terminationHandler = nil
                ended.resume(throwing: error)
            }
        }
    }

    /// Runs `executable` with `arguments` in the repository; its status and its stdout and stderr
    /// together (through a file: no pipe to drain while it runs), CRLF made LF, and bytes that are
    /// not UTF-8 (a serial line cut mid-character) replaced rather than losing the whole text.
    static func shell(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> (status: Int32, output: String) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-shell-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
            throw Failure(description: "cannot create \(output.path)")
        }
        defer { try? FileManager.default.removeItem(at: output) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        p.currentDirectoryURL = root
        let file = try FileHandle(forWritingTo: output)
        defer { try? file.close() }
        p.standardOutput = file
        p.standardError = file
        let status = try await finish(p)
        return (status, String(decoding: try Data(contentsOf: output), as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n"))
    }

    /// The `kiosk` executable `swift build` put beside the test bundle.
    static let kioskBinary: String = {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [dir, dir.deletingLastPathComponent()] where FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("kiosk").path) {
            return candidate.appendingPathComponent("kiosk").path
        }
        return root.appendingPathComponent(".build/debug/kiosk").path
    }()

    /// Boots the VM, in one of the `places`, runs `script` (shell text) with `files` in its working
    /// directory, and returns the console.
    /// `binaries` are host files copied into the working directory as they are (executables with
    /// their shared libraries). With `screendump`, the screen is saved there as a PPM when the
    /// script prints "KIOSK-SCREENDUMP" or runs `screendump` (see run-in-vm.sh).
    /// With `resizableDisplay`, a script line `KIOSK-DISPLAY-SIZE WxH` resizes the display from
    /// the host, which the guest kernel reports as a DRM hotplug (see run-in-vm.sh).
    /// With `network`, the VM has QEMU's user-mode network: this machine's 127.0.0.1 is 10.0.2.2 inside.
    static func run(script: String, files: [String: String], binaries: [String] = [], screendump: String? = nil,
                    secondSerialPort: Bool = false, resizableDisplay: Bool = false, network: Bool = false) async throws -> Run {
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
        var environment: [String: String] = [:]
        if let screendump { environment["KIOSK_VM_SCREENDUMP"] = screendump }
        if resizableDisplay { environment["KIOSK_VM_DISPLAY_SIZE"] = "1" }
        if network { environment["KIOSK_VM_NETWORK"] = "1" }
        let serial2Path = dir.appendingPathComponent("serial2.log").path
        if secondSerialPort { environment["KIOSK_VM_SERIAL2"] = serial2Path }
        // The serial line ends lines with CRLF (shell makes them LF).
        let vm = try await inPlace { try await shell(root.appendingPathComponent("Tests/vm/run-in-vm.sh").path, arguments, environment: environment) }
        let serial2 = secondSerialPort ? text(of: serial2Path) : ""
        return Run(status: vm.status, console: vm.output, serial2: serial2)
    }

    /// A serial line's file as text, CRLF made LF; bytes that are not UTF-8 replaced.
    static func text(of path: String) -> String {
        String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data(), as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    }

    /// What `kiosk` printed when run on this machine, and its exit status.
    struct HostRun {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the built `kiosk` on this machine in `directory`, as an integrator replays a trace on
    /// a laptop; its output goes through files there, so neither pipe can fill and stall it.
    static func kiosk(_ arguments: [String], in directory: URL) async throws -> HostRun {
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
        let status = try await finish(p)
        return HostRun(status: status, stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
                       stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }
}

extension Trait where Self == KernelHarness.AfterItsVM {
    /// The suite's test cases run after its VM (`KernelHarness.AfterItsVM`).
    static func afterItsVM(_ vm: @escaping @Sendable () async -> Void) -> Self { Self(vm: vm) }
}

