import KioskConfig
import KioskCore
import KioskState
import KioskLog
#if canImport(Glibc)
import Glibc
#endif

// The state file (`[state]`): restored before the first frame and before any extension is
// installed, so the control socket and MQTT never see the config's values in place of the saved
// ones; looked at after every frame, written coalesced (KioskState/StateStore.swift).
extension KioskLoop {

    /// Opens the state file `[state]` names and puts what it holds into the scene. A folder that
    /// does not exist is kiosk run by hand outside its unit: a warning, and no state file.
    func openStateStore() {
        let settings = configuration.state
        guard let path = settings.path(environment: options.environment) else {
            log.info("state file off ([state] enabled = false): every start begins from the config's values")
            return
        }
        let file = StateFile(path: path)
        var info = stat()
        guard stat(file.directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            log.warning("state file off: its folder does not exist (kiosk.service makes \(StateSettings.defaultDirectory)); set [state] directory to a folder that does, or enabled = false",
                        metadata: ["state.file": "\(path)"])
            return
        }
        let store = StateStore(file: file, interval: settings.writeIntervalSeconds, logger: log)
        store.restore(into: scene)
        stateStore = store
    }

    /// After the frame: what this wake-up changed, and a write when one is due.
    func saveState(at now: Instant) {
        guard let store = stateStore else { return }
        store.observe(scene)
        store.service(now: now, fingersDown: fingers.count)
    }

    /// SIGTERM or SIGINT: what is unsaved is written before the kiosk stops.
    func flushState() {
        guard let store = stateStore else { return }
        store.observe(scene)
        store.flush(now: clock.now)
    }

    /// A reload: the new interval at once; the file's place and `enabled` at the next start
    /// (returned as the keys that need it). The new scene is looked at after the reload's frame.
    func reconfigureState(_ next: StateSettings, old: StateSettings) -> [String] {
        stateStore?.interval = next.writeIntervalSeconds
        return next.restartKeys(from: old)
    }

    /// For the stats line: `state=WRITES/FAILED`.
    var stateStatsFields: [(String, String)] {
        guard let c = stateStore?.counters else { return [] }
        return [("state", "\(c.writes)/\(c.failures)")]
    }
}
