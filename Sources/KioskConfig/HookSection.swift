import KioskCore
import Scene
#if canImport(Glibc)
import Glibc
#endif

/// A control's event a hook can run on: UIControl's names, as `kiosk replay --events` writes them.
public enum HookEvent: String, Sendable, Hashable, CaseIterable {
    case touchDown, touchUpInside, touchUpOutside, touchCancel, primaryActionTriggered, valueChanged
    /// The display's: the panel woken or blanked (`view = "display"`).
    case screenOn, screenOff

    /// The name hooks give the display as their `view` (reserved: no view may have it).
    public static let displayView = "display"

    /// Whether the display, not a control, sends it.
    public var isDisplays: Bool { self == .screenOn || self == .screenOff }

    /// The view kinds that send this event: only a button fires its primary action; only a
    /// slider and a switch change value.
    var kinds: [ViewKind] {
        switch self {
        case .primaryActionTriggered: [.button]
        case .valueChanged: [.slider, .toggle]
        case .screenOn, .screenOff: []
        default: [.button, .slider, .toggle]
        }
    }
}

/// One `[[hook]]`: run a program when a control sends an event.
public struct HookDescription: Sendable, Equatable {
    public var view: String
    public var event: HookEvent
    /// The program and its arguments, run as they are: never through a shell.
    public var run: [String]
    public var timeoutSeconds: Double
    /// Where the `[[hook]]` header is written: every line about this hook names it.
    public var location: SourceLocation

    public init(view: String, event: HookEvent, run: [String], timeoutSeconds: Double = HookSettings.defaultTimeout,
                location: SourceLocation = SourceLocation(file: "<code>", line: 0)) {
        self.view = view
        self.event = event
        self.run = run
        self.timeoutSeconds = timeoutSeconds
        self.location = location
    }
}

/// The `[[hook]]` tables and the `[hooks]` limits.
public struct HookSettings: Sendable, Equatable {
    public static let defaultTimeout = 10.0
    public var hooks: [HookDescription] = []
    /// Hooks running at once; more wait in the queue.
    public var maxRunning = 4
    /// Runs waiting for a free slot; past it, runs are dropped and counted.
    public var queueLimit = 64
    /// After TERM at the timeout, how long a hook has to exit before KILL.
    public var killGraceSeconds = 2.0

    public init(hooks: [HookDescription] = [], maxRunning: Int = 4, queueLimit: Int = 64, killGraceSeconds: Double = 2) {
        self.hooks = hooks
        self.maxRunning = maxRunning
        self.queueLimit = queueLimit
        self.killGraceSeconds = killGraceSeconds
    }
}

/// Reads `[hooks]` and every `[[hook]]` into `HookSettings`.
struct HookSection {
    /// A day: a hook that runs longer is not a hook but a service.
    static let longestTimeout = 86_400.0

    func settings(_ top: TableReader, views: [ViewDescription]) throws(ConfigError) -> HookSettings {
        var s = HookSettings()
        if let r = try top.subtable(SectionKey.hooks) {
            try r.rejectUnknownKeys(allowed: HooksKey.names)
            s.maxRunning = try r.int(HooksKey.maxRunning, in: 1...64) ?? s.maxRunning
            s.queueLimit = try r.int(HooksKey.queue, in: 0...4096) ?? s.queueLimit
            s.killGraceSeconds = try r.number(HooksKey.killGrace, in: 0.1...60, unit: " of seconds") ?? s.killGraceSeconds
        }
        for r in try top.tables(SectionKey.hook) ?? [] {
            s.hooks.append(try hook(r, views: views))
        }
        return s
    }

    func hook(_ r: TableReader, views: [ViewDescription]) throws(ConfigError) -> HookDescription {
        try r.rejectUnknownKeys(allowed: HookKey.names)
        let location = SourceLocation(file: r.file, line: r.locator.line(of: r.path))
        let controls = views.filter { [.button, .slider, .toggle].contains($0.kind) }.map(\.name)
        let name = try r.requiredString(HookKey.view)
        if name == HookEvent.displayView { return try displayHook(r, location: location) }
        guard let view = views.first(where: { $0.name == name }) else {
            var message = "no view is named '\(name)'"
            if let near = nearest(name, among: views.map(\.name)) { message += " (did you mean '\(near)'?)" }
            throw r.error(HookKey.view, message + "; hooks run on controls: \(controls.joined(separator: ", "))")
        }
        let eventName = try r.requiredString(HookKey.event)
        guard let event = try r.choice(HookKey.event, HookEvent.allCases.map(\.rawValue)).flatMap(HookEvent.init(rawValue:)) else {
            throw r.error(HookKey.event, "'\(eventName)' is not a control event")
        }
        guard !event.isDisplays else {
            throw r.error(HookKey.event, "\(event.rawValue) is the display's event; give it view = \"\(HookEvent.displayView)\"")
        }
        guard event.kinds.contains(view.kind) else {
            let senders = views.filter { event.kinds.contains($0.kind) }.map(\.name)
            throw r.error(HookKey.event, "a \(view.kind.rawValue) never sends \(event.rawValue)"
                + (senders.isEmpty ? "" : "; the views that do: \(senders.joined(separator: ", "))"))
        }
        return HookDescription(view: name, event: event, run: try program(r), timeoutSeconds: try timeout(r), location: location)
    }

    /// A hook on the display: `view = "display"`, `event = "screenOn"` or `"screenOff"`.
    func displayHook(_ r: TableReader, location: SourceLocation) throws(ConfigError) -> HookDescription {
        let eventName = try r.requiredString(HookKey.event)
        guard let event = HookEvent(rawValue: eventName), event.isDisplays else {
            throw r.error(HookKey.event, "the display sends screenOn and screenOff, not '\(eventName)'")
        }
        return HookDescription(view: HookEvent.displayView, event: event, run: try program(r), timeoutSeconds: try timeout(r), location: location)
    }

    func timeout(_ r: TableReader) throws(ConfigError) -> Double {
        try r.number(HookKey.timeout, in: 0.001...Self.longestTimeout, unit: " of seconds") ?? HookSettings.defaultTimeout
    }

    /// `run`: the program, an absolute path that can be run, and its arguments.
    func program(_ r: TableReader) throws(ConfigError) -> [String] {
        guard let run = try r.strings(HookKey.run), let program = run.first, !program.isEmpty else {
            if !r.has(HookKey.run) { throw r.error(nil, "a hook needs 'run', such as run = [\"/usr/local/bin/open-door\", \"--fast\"]") }
            throw r.error(HookKey.run, "expected the program and its arguments, such as [\"/usr/local/bin/open-door\", \"--fast\"]")
        }
        guard program.hasPrefix("/") else {
            throw r.error(HookKey.run, "'\(program)' is not an absolute path; hooks run no shell and search no PATH, "
                + "so name the program in full, such as \"/usr/bin/\(program.split(separator: "/").last ?? "")\"")
        }
        if let problem = Self.problem(program) { throw r.error(HookKey.run, problem) }
        return run
    }

    /// Why `program` cannot be run, or nil: checked here so that check-config, not the first tap, finds it.
    static func problem(_ program: String) -> String? {
        var s = stat()
        guard stat(program, &s) == 0 else {
            return "'\(program)' cannot be run: \(Errno(rawValue: errno))"
        }
        guard (s.st_mode & S_IFMT) == S_IFREG else { return "'\(program)' is not a file" }
        guard access(program, X_OK) == 0 else {
            return "'\(program)' is not executable (\(Errno(rawValue: errno))); chmod +x it, or fix the path"
        }
        return nil
    }
}

extension TOMLWriter {
    mutating func hooks(_ s: HookSettings) {
        header(SectionKey.hooks.header)
        int(HooksKey.maxRunning, s.maxRunning)
        int(HooksKey.queue, s.queueLimit)
        number(HooksKey.killGrace, s.killGraceSeconds)
        for h in s.hooks {
            header("[\(SectionKey.hook.header)]")
            string(HookKey.view, h.view)
            string(HookKey.event, h.event.rawValue)
            strings(HookKey.run, h.run)
            number(HookKey.timeout, h.timeoutSeconds)
        }
    }
}
