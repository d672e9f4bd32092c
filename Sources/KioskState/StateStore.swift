import KioskCore
import KioskLog
import Scene

/// Keeps the state file in step with the scene: restores it at start, notices what changed at
/// each wake-up, and writes coalesced.
///
/// When a write happens:
/// - a change after a quiet spell is written at once;
/// - while the state keeps changing (a drag, a burst of sets), at most one write per `interval`;
///   what changed since the last write is written when the interval is up;
/// - when the last finger lifts, what is unsaved is written within `touchEndSpacing` (the final
///   value of a drag without waiting out the interval, but taps in a storm are not each a write);
/// - at SIGTERM (`flush`).
///
/// A write is a few hundred bytes, durably (`StateFile.write`): on the loop, after the frame is
/// drawn. A failed write is logged once per burst of failures and tried again an interval later;
/// the kiosk runs on.
public final class StateStore {
    public struct Counters: Sendable, Equatable {
        public var writes = 0
        public var failures = 0
        /// The slowest write so far (open to fsync of the folder), in milliseconds.
        public var slowestWriteMilliseconds = 0.0
        /// Every write's time added up, in milliseconds (with `writes`, the mean).
        public var totalWriteMilliseconds = 0.0
    }

    public let file: StateFile
    /// The least time between two writes while the state keeps changing, in seconds.
    public var interval: Double
    public private(set) var counters = Counters()

    private var log: Logger
    /// The scene's saved views at the last look: what the next write saves.
    private var views: [SavedView] = []
    private var announced: Set<String> = []
    private var deviceComponents: [String: [String: String]] = [:]
    private var display: SavedDisplay?
    /// Something is not on disk yet.
    private var dirty = false
    /// The last finger lifted with something unsaved.
    private var touchEnded = false
    private var fingersWereDown = false
    private var lastWriteAt: Instant?
    /// Failed writes in a row; the first is logged, the rest counted until one succeeds.
    private var failingWrites = 0
    private let stopwatch = MonotonicClock()

    public init(file: StateFile, interval: Double, logger: Logger) {
        self.file = file
        self.interval = interval
        log = logger
    }

    /// The least time between the last write and the one after the last finger lifted.
    public var touchEndSpacing: Double { min(interval, 0.25) }

    /// True when something set is not on disk yet.
    public var hasUnsavedChanges: Bool { dirty }

    /// What the scene holds now, as the file will say it.
    public var document: StateDocument { StateDocument(views: views, announcedTopics: announced, deviceComponents: deviceComponents, display: display) }

    // MARK: MQTT's announced topics

    /// The retained topics MQTT said it announced, as the state file keeps them across restarts.
    public var announcedTopics: Set<String> { announced }

    /// The components of each device config MQTT announced: by topic, each component id's platform.
    public var announcedDeviceComponents: [String: [String: String]] { deviceComponents }

    /// Replaces the announced topics and device components; written with the next write
    /// (coalesced like any change).
    public func remember(announced topics: Set<String>, deviceComponents components: [String: [String: String]]) {
        guard topics != announced || components != deviceComponents else { return }
        announced = topics
        deviceComponents = components
        dirty = true
    }

    // MARK: The display

    /// The display's state as the file held it at `restore`, or as last remembered.
    public var savedDisplay: SavedDisplay? { display }

    /// The display's state now (each wake-up); written with the next write when it changed.
    public func remember(display now: SavedDisplay) {
        guard now != display else { return }
        display = now
        dirty = true
    }

    // MARK: The loop's calls

    /// Reads the file and puts what it holds into `scene`, before its first frame: a missing or
    /// unusable file is a warning with the defaults kept; state for views the config no longer
    /// has is dropped; a value the config does not allow is refused with a warning.
    public func restore(into scene: KioskScene) {
        let meta: Logger.Metadata = ["state.file": "\(file.path)"]
        var onDisk: [SavedView]?
        switch file.read() {
        case .missing:
            log.warning("state file missing; starting from the config's values", metadata: meta)
        case .unusable(let why):
            log.warning("state file not used: \(why); starting from the config's values", metadata: meta)
        case .document(let d):
            onDisk = d.views
            announced = d.announcedTopics
            deviceComponents = d.deviceComponents
            display = d.display
            var dropped: [String] = []
            var restored = 0
            for v in d.views {
                guard scene.viewID(named: v.name) != nil else {
                    dropped.append(v.name)
                    continue
                }
                do {
                    try scene.restore(v.name, v.state)
                    restored += 1
                } catch {
                    log.warning("state refused: \(error.message); the config's value kept", metadata: meta)
                }
            }
            if !dropped.isEmpty {
                log.notice("state dropped for views no longer in the config", metadata: meta.merging(["state.dropped": "\(dropped.joined(separator: ","))"]) { a, _ in a })
            }
            log.info("state restored", metadata: meta.merging(["state.views": "\(restored)"]) { a, _ in a })
        }
        views = scene.savedViews()
        // The file is brought in line at once when it says anything else (or nothing).
        dirty = onDisk.map { Self.byName($0) != Self.byName(views) } ?? true
    }

    /// Looks at the scene (each wake-up, and after a reload replaced it); allocates nothing unless
    /// something changed.
    public func observe(_ scene: KioskScene) {
        guard !scene.savedViewsMatch(views) else { return }
        views = scene.savedViews()
        dirty = true
    }

    /// The moment the next write is due; nil when everything is on disk.
    public var nextDeadline: Instant? {
        guard dirty else { return nil }
        guard let last = lastWriteAt else { return Instant(microseconds: 0) }
        return last.adding(seconds: touchEnded ? touchEndSpacing : interval)
    }

    /// Writes when a write is due at `now`; `fingersDown` tells when the last finger lifted.
    public func service(now: Instant, fingersDown: Int) {
        if fingersWereDown, fingersDown == 0, dirty { touchEnded = true }
        fingersWereDown = fingersDown > 0
        if let due = nextDeadline, now >= due { write(now: now) }
    }

    /// Writes now whatever is unsaved, whatever the interval (SIGTERM).
    public func flush(now: Instant) {
        if dirty { write(now: now) }
    }

    private func write(now: Instant) {
        lastWriteAt = now
        touchEnded = false
        let started = stopwatch.now
        do {
            try file.write(document.text)
        } catch {
            counters.failures += 1
            failingWrites += 1
            if failingWrites == 1 {
                log.error("state not written: \(error.reason); the kiosk runs on and tries again every \(fixedDecimal(interval, 1)) s",
                          metadata: ["state.file": "\(file.path)"])
            }
            return
        }
        dirty = false
        counters.writes += 1
        let ms = Double(stopwatch.now.microseconds - started.microseconds) / 1000
        counters.slowestWriteMilliseconds = max(counters.slowestWriteMilliseconds, ms)
        counters.totalWriteMilliseconds += ms
        if failingWrites > 0 {
            log.notice("state written again", metadata: ["state.file": "\(file.path)", "state.failed_writes": "\(failingWrites)"])
            failingWrites = 0
        }
        log.trace("state written", metadata: ["state.file": "\(file.path)", "state.write.ms": "\(fixedDecimal(ms, 2))"])
    }

    private static func byName(_ views: [SavedView]) -> [String: SavedViewState] {
        Dictionary(views.map { ($0.name, $0.state) }, uniquingKeysWith: { a, _ in a })
    }
}
