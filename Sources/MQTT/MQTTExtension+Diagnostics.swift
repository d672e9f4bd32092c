import KioskConfig
import KioskCore
import MQTTProtocol
import Runtime

// The kiosk's health on `<prefix>/diagnostics` (MQTTProtocol/Diagnostics.swift): at each stats
// line, and once at connect after the discovery configs.
extension MQTTExtension {
    /// The diagnostics entities; the CPU temperature's only where the machine has a thermal zone.
    static func diagnosticsEntities(topics: KioskTopics) -> [DeviceEntity] {
        Diagnostics.entities(topics: topics, cpuTemperature: HostFacts().cpuTemperature() != nil)
    }

    public func statsReported(now: Instant, target: CommandTarget) {
        guard isConnected else { return }
        publishDiagnostics(target.diagnostics)
    }

    /// The message for `loop`'s figures and MQTT's own, not retained. Skipped (the next stats
    /// line sends it) while libmosquitto's queue is full.
    func publishDiagnostics(_ loop: LoopDiagnostics) {
        diagnosticsDue = false
        guard queued < Self.maximumQueued else { return }
        let figures = Diagnostics.Figures(
            framesPerSecond: loop.framesPerSecond, latencyP99Milliseconds: loop.latencyP99Milliseconds, overruns: loop.overruns,
            touchscreenConnected: loop.touchscreenConnected, started: WallClock.iso8601(loop.startedAt),
            cpuTemperature: HostFacts().cpuTemperature(), mqttDropped: counters.eventsDropped + counters.commandsDropped)
        send(Diagnostics.topic(topics), Diagnostics.payload(figures), retain: false)
    }
}
