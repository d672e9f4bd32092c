import Foundation
import KioskTestSupport
import Scene
import Testing
@testable import KioskConfig

/// A scene with one control of each kind, then `hooks` (the `[hooks]` and `[[hook]]` tables under test).
func hookConfig(_ hooks: String) -> String {
    """
    [[view]]
    name = "canvas"
    kind = "canvas"
    frame = [0, 0, 800, 480]

    [[view]]
    name = "door"
    kind = "button"
    parent = "canvas"
    frame = [40, 396, 180, 56]

    [[view]]
    name = "level"
    kind = "slider"
    parent = "canvas"
    frame = [260, 396, 300, 56]

    [[view]]
    name = "pump"
    kind = "switch"
    parent = "canvas"
    frame = [620, 396, 120, 56]

    """ + hooks + "\n"
}

@Suite("[[hook]] and [hooks]: read, checked, written back")
struct HookConfigTests {
    @Test func everyKeyIsRead() throws {
        let c = try KioskConfiguration.parse(hookConfig("""
            [hooks]
            max_running = 2
            queue = 16
            kill_grace = 0.5

            [[hook]]
            view = "door"
            event = "primaryActionTriggered"
            run = ["/bin/echo", "open", "--fast"]
            timeout = 2.5

            [[hook]]
            view = "pump"
            event = "valueChanged"
            run = ["/bin/true"]
            """), file: "kiosk.toml")
        #expect(c.hooks.maxRunning == 2)
        #expect(c.hooks.queueLimit == 16)
        #expect(c.hooks.killGraceSeconds == 0.5)
        #expect(c.hooks.hooks == [
            HookDescription(view: "door", event: .primaryActionTriggered, run: ["/bin/echo", "open", "--fast"], timeoutSeconds: 2.5,
                            location: SourceLocation(file: "kiosk.toml", line: 28)),
            HookDescription(view: "pump", event: .valueChanged, run: ["/bin/true"], timeoutSeconds: 10,
                            location: SourceLocation(file: "kiosk.toml", line: 34)),
        ])
    }

    @Test func withoutHooksNothingRunsAndTheLimitsHaveTheirDefaults() throws {
        let c = try KioskConfiguration.parse(hookConfig(""), file: "kiosk.toml")
        #expect(c.hooks == HookSettings())
        #expect(c.hooks.maxRunning == 4 && c.hooks.queueLimit == 64 && c.hooks.killGraceSeconds == 2)
    }

    @Test func theResolvedTextReadsBackToTheSameHooks() throws {
        let c = try KioskConfiguration.parse(hookConfig("""
            [[hook]]
            view = "level"
            event = "touchDown"
            run = ["/bin/echo", "a \\"quoted\\" word"]
            """), file: "kiosk.toml")
        let back = try KioskConfiguration.parse(c.resolvedText, file: "printed.toml")
        #expect(back.hooks.hooks.map(\.run) == [["/bin/echo", "a \"quoted\" word"]])
        #expect(back.hooks.hooks.map(\.event) == [.touchDown])
        #expect(back.hooks.maxRunning == c.hooks.maxRunning)
    }

    static let refusals: [(hooks: String, needle: String, expected: String)] = [
        ("[[hook]]\nview = \"dor\"\nevent = \"touchDown\"\nrun = [\"/bin/true\"]", "view = \"dor\"",
         "hook[0].view: no view is named 'dor' (did you mean 'door'?); hooks run on controls: door, level, pump"),
        ("[[hook]]\nview = \"door\"\nevent = \"tap\"\nrun = [\"/bin/true\"]", "event = \"tap\"",
         "hook[0].event: 'tap' is not one of: touchDown, touchUpInside, touchUpOutside, touchCancel, primaryActionTriggered, valueChanged, screenOn, screenOff"),
        ("[[hook]]\nview = \"display\"\nevent = \"touchDown\"\nrun = [\"/bin/true\"]", "event = ",
         "hook[0].event: the display sends screenOn and screenOff, not 'touchDown'"),
        ("[[hook]]\nview = \"door\"\nevent = \"screenOff\"\nrun = [\"/bin/true\"]", "event = ",
         "hook[0].event: screenOff is the display's event; give it view = \"display\""),
        ("[[hook]]\nview = \"level\"\nevent = \"primaryActionTriggered\"\nrun = [\"/bin/true\"]", "event = ",
         "hook[0].event: a slider never sends primaryActionTriggered; the views that do: door"),
        ("[[hook]]\nview = \"door\"\nevent = \"valueChanged\"\nrun = [\"/bin/true\"]", "event = ",
         "hook[0].event: a button never sends valueChanged; the views that do: level, pump"),
        ("[[hook]]\nview = \"door\"\nevent = \"touchDown\"\nrun = \"/bin/true --fast\"", "run = ",
         "hook[0].run: expected a list of strings in brackets, such as [\"pan\", \"pinch@yellow\"], found \"/bin/true --fast\""),
        ("[[hook]]\nview = \"door\"\nevent = \"touchDown\"\nrun = []", "run = ",
         "hook[0].run: expected the program and its arguments, such as [\"/usr/local/bin/open-door\", \"--fast\"]"),
        ("[[hook]]\nview = \"door\"\nevent = \"touchDown\"", "[[hook]]",
         "hook[0]: a hook needs 'run', such as run = [\"/usr/local/bin/open-door\", \"--fast\"]"),
        ("[[hook]]\nview = \"door\"\nevent = \"touchDown\"\nrun = [\"gpioset\", \"gpiochip0\", \"17=1\"]", "run = ",
         "hook[0].run: 'gpioset' is not an absolute path; hooks run no shell and search no PATH, so name the program in full, such as \"/usr/bin/gpioset\""),
        ("[[hook]]\nview = \"door\"\nevent = \"touchDown\"\nrun = [\"/nonexistent/open-door\"]", "run = ",
         "hook[0].run: '/nonexistent/open-door' cannot be run: No such file or directory"),
        ("[[hook]]\nview = \"door\"\nevent = \"touchDown\"\nrun = [\"@PLAIN@\"]", "run = ",
         "hook[0].run: '@PLAIN@' is not executable (Permission denied); chmod +x it, or fix the path"),
        ("[[hook]]\nview = \"door\"\nevent = \"touchDown\"\nrun = [\"/tmp\"]", "run = ", "hook[0].run: '/tmp' is not a file"),
        ("[[hook]]\nview = \"door\"\nevent = \"touchDown\"\nrun = [\"/bin/true\"]\ntimeout = 0", "timeout",
         "hook[0].timeout: 0 is out of range; allowed: a number of seconds from 0.001 to 86400"),
        ("[[hook]]\nview = \"door\"\nevent = \"touchDown\"\nrun = [\"/bin/true\"]\ncommand = \"x\"", "command",
         "hook[0].command: unknown key in hook[0]. Allowed: view, event, run, timeout"),
        ("[hooks]\nmax_running = 0", "max_running", "hooks.max_running: 0 is out of range; allowed: a whole number from 1 to 64"),
        ("[hooks]\nqueue = 100000", "queue", "hooks.queue: 100000 is out of range; allowed: a whole number from 0 to 4096"),
    ]

    /// The display's hooks: `view = "display"`, screenOn or screenOff; read and written back.
    @Test func theDisplayHasScreenOnAndScreenOff() throws {
        let text = hookConfig("[[hook]]\nview = \"display\"\nevent = \"screenOff\"\nrun = [\"/bin/true\"]\n")
        let c = try KioskConfiguration.parse(text, file: "kiosk.toml")
        #expect(c.hooks.hooks.map(\.view) == ["display"] && c.hooks.hooks.map(\.event) == [.screenOff])
        let back = try KioskConfiguration.parse(c.resolvedText, file: "printed.toml")
        #expect(back.hooks.hooks.map(\.event) == [.screenOff])
    }

    @Test(arguments: refusals)
    func aBadHookIsRefusedOnItsLine(c: (hooks: String, needle: String, expected: String)) throws {
        // A file without execute bits, for the case that needs one.
        let plain = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-hook-plain-\(UUID().uuidString.prefix(8))").path
        try "#!/bin/sh\n".write(toFile: plain, atomically: true, encoding: .utf8)
        chmod(plain, 0o644)
        defer { unlink(plain) }
        let text = hookConfig(c.hooks.replacingOccurrences(of: "@PLAIN@", with: plain))
        let n = line(of: c.needle, in: text)
        let e = try #require(configError(text))
        #expect(e.description == "kiosk.toml:\(n): \(c.expected.replacingOccurrences(of: "@PLAIN@", with: plain))")
    }
}

/// `kiosk check-config` on a hook whose program is missing: the hook's file:line, exit status 2.
@Suite("kiosk check-config and hooks")
struct HookCheckConfigTests {
    @Test func aMissingProgramIsNamedWithTheHooksFileAndLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-hookcheck-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("kiosk.conf").path
        let text = hookConfig("[[hook]]\nview = \"door\"\nevent = \"primaryActionTriggered\"\nrun = [\"/usr/local/bin/no-such-door\"]\n")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try KioskExecutable.run(["check-config", path])
        #expect(r.status == 2)
        #expect(r.stderr == "\(path):26: hook[0].run: '/usr/local/bin/no-such-door' cannot be run: No such file or directory\n")

        try text.replacingOccurrences(of: "/usr/local/bin/no-such-door", with: "/bin/true").write(toFile: path, atomically: true, encoding: .utf8)
        let good = try KioskExecutable.run(["check-config", path])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout.contains("\n[[hook]]\nview = \"door\"\nevent = \"primaryActionTriggered\"\nrun = [\"/bin/true\"]\ntimeout = 10\n"), "\(good.stdout)")
    }
}
