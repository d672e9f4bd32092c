import KioskConfig
import KioskCore
import KioskLog
import MQTTProtocol
import Runtime
import Scene
#if canImport(Glibc)
import Glibc
#endif

// Commands from the broker, applied as a finger's changes; and how `kiosk run` installs the extension.
extension MQTTExtension {
    // MARK: Commands

    func received(_ topic: String, _ payload: UnsafeRawBufferPointer) {
        if topic == topics.homeAssistantStatus {
            // Home Assistant started (again): it forgets entities whose config it did not see.
            perform(machine.homeAssistantStatus(online: payload.elementsEqual("online".utf8)), now: lastNow)
            return
        }
        guard commands.count < Self.maximumCommands else {
            counters.commandsDropped += 1
            return
        }
        // A label is the longest command; the others' limits are checked on the bytes kept.
        commands.append((topic, Array(payload.prefix(ControlPayload.maximumLabelBytes + 1))))
    }

    func applyCommands(_ target: CommandTarget, now: Instant) {
        guard !commands.isEmpty else { return }
        let batch = commands
        commands.removeAll(keepingCapacity: true)
        for (topic, payload) in batch {
            if let level = topics.labelCommandLevel(of: topic) {
                applyLabel(level: level, payload, topic: topic, target)
                continue
            }
            if let level = topics.commandLevel(of: topic), let asked = Self.deviceCommand(level: level, payload: payload) {
                switch asked {
                case .failure(let error): refuse(topic, error.message)
                case .success(let command): submit(command, topic: topic, target)
                }
                continue
            }
            guard let level = topics.commandLevel(of: topic), let c = controls.first(where: { $0.level == level }) else {
                refuse(topic, "no control of this kiosk has that topic; controls: "
                    + controls.map { topics.command($0.name) }.joined(separator: ", "))
                continue
            }
            let command: RemoteCommand
            switch ControlPayload.command(payload, for: c.kind) {
            case .failure(let error):
                refuse(topic, "\(error)")
                continue
            case .success(.percent(let p)): command = .setValue(view: c.name, p / 100)
            case .success(.on(let on)): command = .setOn(view: c.name, on)
            case .success(.press): command = .press(view: c.name)
            }
            submit(command, topic: topic, target)
        }
    }

    /// A new label for the button at `level` (`<prefix>/<level>/label/set`).
    private func applyLabel(level: String, _ payload: [UInt8], topic: String, _ target: CommandTarget) {
        guard let c = controls.first(where: { $0.level == level && $0.kind == .button }) else {
            refuse(topic, "no button of this kiosk has that topic; buttons' labels: "
                + controls.filter { $0.kind == .button }.map { topics.labelCommand($0.name) }.joined(separator: ", "))
            return
        }
        switch ControlPayload.label(payload) {
        case .failure(let error): refuse(topic, "\(error)")
        case .success(let label): submit(.setLabel(view: c.name, label), topic: topic, target)
        }
    }

    /// Hands `command` (from `topic`) to the loop; dropped and counted when its queue is full.
    private func submit(_ command: RemoteCommand, topic: String, _ target: CommandTarget) {
        nextTicket &+= 1
        guard target.submit(command, source: .mqtt, requester: self, ticket: nextTicket) else {
            counters.commandsDropped += 1
            return
        }
        waitingTopics.append((nextTicket, topic))
    }

    /// The loop applied a command from the broker (after every extension was served).
    public func completed(ticket: Int, result: Result<Void, RemoteCommandError>, target: CommandTarget, now: Instant) {
        guard let i = waitingTopics.firstIndex(where: { $0.ticket == ticket }) else { return }
        let topic = waitingTopics.remove(at: i).topic
        switch result {
        case .success: counters.commandsApplied += 1
        case .failure(let error): refuse(topic, error.message)
        }
    }

    private func refuse(_ topic: String, _ why: String) {
        counters.commandsRefused += 1
        log.warning("mqtt: command ignored", metadata: ["mqtt.topic": "\(topic)", "mqtt.error": "\(why)"])
    }
}

extension MQTTExtension {
    /// `kiosk run` with `[mqtt]`: the client set up and served by `loop`; a client that cannot be
    /// made (libmosquitto refused a setting) is logged, and the kiosk runs without MQTT.
    /// `memory` holds what earlier runs announced (see `AnnouncementMemory`).
    public static func install(_ settings: MQTTSettings, in loop: KioskLoop, memory: AnnouncementMemory, logger: Logger) {
        do {
            loop.install(try MQTTExtension(settings: settings, hardwareVersion: HostFacts().model(), memory: memory, logger: logger,
                                           now: loop.clock.now))
        } catch {
            logger.error("mqtt: cannot set up the client; running without MQTT", metadata: ["mqtt.error": "\(error)"])
        }
    }
}
