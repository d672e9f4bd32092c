import ArgumentParser
import Control
import Foundation
import KioskCore
import KioskConfig

/// `kiosk control`: the command-line client of the control socket, as adb's `input` is Android's.
struct ControlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "control",
        abstract: "Read or change a running kiosk through its control socket.",
        discussion: """
            state                         print the scene as `kiosk replay --state` writes it
            set VIEW VALUE                a slider's value (0 to 1), a switch's on/off (true, false, on, off), \
            or a button's label (anything else)
            tap X Y                       a synthetic tap at screen pixels X, Y
            swipe X1 Y1 X2 Y2 [SECONDS]   a synthetic swipe (default 0.3 s)
            watch                         print control, gesture and state events as they come (JSON Lines)
            screenshot --out FILE         a PNG of the frame the panel shows, written to FILE (- for stdout); \
            at most one every 2 s
            display [on|off] [--brightness B] [--blank-after S]
                                          print the display (on, brightness, blank_after, last_touch); or set the panel on (woken) or off (blanked as after idle), the backlight's \
            brightness (0 to 1), seconds without a touch before it blanks (0: never)
            wake                          wake the panel, as a touch would
            The socket is --socket when given, else the config's [control] socket (--config; default \
            /etc/kiosk/kiosk.conf when it exists, else a checkout's config/kiosk.toml), else \
            \(ControlSettings.defaultSocket) when there is no config. Only [control] is read.
            Exit status: 0 done, 1 the kiosk refused the request (the reason on stderr) or cannot be reached, \
            2 the config cannot be used, 64 wrong arguments.
            """
    )

    @Option(help: "The control socket; default: the config's [control] socket. Given, no config is read.")
    var socket: String?

    @Option(help: "The kiosk config whose [control] socket to use; default: /etc/kiosk/kiosk.conf when it exists, else a checkout's config/kiosk.toml.")
    var config: String?

    @Option(help: "screenshot: the PNG file to write (- for standard output).")
    var out: String?

    @Option(help: "display: the backlight's brightness, 0 to 1.")
    var brightness: Double?

    @Option(name: .customLong("blank-after"), help: "display: seconds without a touch before the panel blanks; 0: never.")
    var blankAfter: Double?

    @Argument(help: "state, set, tap, swipe, watch, screenshot, display or wake")
    var action: String

    @Argument(help: "The action's arguments.")
    var arguments: [String] = []

    func run() throws {
        let request = try makeRequest()
        let path = try socketPath()
        let connection: ControlConnection
        do {
            connection = try ControlConnection(path: path)
        } catch {
            FileHandle.standardError.write(Data("kiosk control: cannot reach the kiosk: \(error)\n".utf8))
            throw ExitCode(1)
        }
        do {
            try connection.send(request)
            while let line = try connection.readLine() {
                guard let reply = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
                if reply["event"] != nil {
                    // Unbuffered: `watch` into a pipe shows each event as it comes.
                    FileHandle.standardOutput.write(Data((line + "\n").utf8))
                    continue
                }
                guard reply["id"] as? Int == 1 || reply["id"] == nil else { continue }
                if reply["ok"] as? Bool != true {
                    FileHandle.standardError.write(Data("kiosk control: \(reply["error"] as? String ?? line)\n".utf8))
                    throw ExitCode(1)
                }
                if action == "state" || action == "display", let state = reply[action == "state" ? "state" : "display"] {
                    let data = try JSONSerialization.data(withJSONObject: state, options: [.prettyPrinted, .sortedKeys])
                    print(String(decoding: data, as: UTF8.self))
                }
                if action == "screenshot" { try writeScreenshot(reply) }
                if action != "watch" { return }
            }
            if action != "watch" {
                FileHandle.standardError.write(Data("kiosk control: the kiosk closed the connection before it replied\n".utf8))
                throw ExitCode(1)
            }
        } catch let error as SocketError {
            FileHandle.standardError.write(Data("kiosk control: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// The reply's PNG (base64) into `--out`, whole or not at all; `-`: standard output.
    func writeScreenshot(_ reply: [String: Any]) throws {
        guard let text = reply["png"] as? String, let png = Data(base64Encoded: text) else {
            FileHandle.standardError.write(Data("kiosk control: the kiosk's reply holds no PNG\n".utf8))
            throw ExitCode(1)
        }
        guard let out, out != "-" else {
            FileHandle.standardOutput.write(png)
            return
        }
        do {
            try TextFile.write(bytes: [UInt8](png), to: out, what: "the screenshot")
        } catch {
            FileHandle.standardError.write(Data("kiosk control: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// `--socket`; else the `[control] socket` of the config that the one `--config` rule picks
    /// (ConfigPath.swift); else, with no config at all, the default socket.
    func socketPath() throws -> String {
        if let socket { return socket }
        let chosen = ConfigPath.resolve(config)
        guard chosen.found else {
            FileHandle.standardError.write(Data(("kiosk control: no config (neither \(ConfigPath.installed) nor a checkout's "
                + "\(ConfigPath.checkout)); the default socket \(ControlSettings.defaultSocket)\n").utf8))
            return ControlSettings.defaultSocket
        }
        chosen.announce("control")
        let settings: ControlSettings
        do {
            settings = try ControlSettings.read(fromFile: chosen.path)
        } catch {
            FileHandle.standardError.write(Data("kiosk control: \(error)\n".utf8))
            throw ExitCode(2)
        }
        guard let path = settings.socket else {
            FileHandle.standardError.write(Data(("kiosk control: \(chosen.path) turns the control socket off ([control] socket = \"none\"); "
                + "the kiosk cannot be reached\n").utf8))
            throw ExitCode(1)
        }
        return path
    }

    /// `display [on|off] [--brightness B] [--blank-after S]`: one `set` on the display.
    func displayRequest() throws -> String {
        let usage = "usage: kiosk control display [on|off] [--brightness B] [--blank-after S]"
        guard arguments.count <= 1 else { throw ValidationError(usage) }
        var fields = [#""id": 1"#, #""command": "set""#, #""view": "display""#]
        if let state = arguments.first {
            guard state == "on" || state == "off" else { throw ValidationError("display: '\(state)' is not on or off; \(usage)") }
            fields.append(#""on": \#(state == "on")"#)
        }
        if let b = brightness {
            guard b.isFinite, (0...1).contains(b) else { throw ValidationError("--brightness must be from 0 to 1, found \(b)") }
            fields.append(#""brightness": \#(b)"#)
        }
        if let s = blankAfter {
            guard s.isFinite, s >= 0 else { throw ValidationError("--blank-after must be 0 or more seconds, found \(s)") }
            fields.append(#""blank_after": \#(s)"#)
        }
        // Nothing to set: the display as it is.
        guard fields.count > 3 else { return #"{"id": 1, "command": "get_state"}"# }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// The request line for the action, or a usage error.
    func makeRequest() throws -> String {
        func count(_ allowed: ClosedRange<Int>, _ usage: String) throws {
            guard allowed.contains(arguments.count) else { throw ValidationError("usage: kiosk control \(usage)") }
        }
        func number(_ s: String, _ what: String) throws -> String {
            guard let d = Double(s), d.isFinite else { throw ValidationError("\(what) must be a number, found '\(s)'") }
            return "\(d)"
        }
        let quoted = JSONString.quoted
        switch action {
        case "state":
            try count(0...0, "state")
            return #"{"id": 1, "command": "get_state"}"#
        case "set":
            try count(2...2, "set VIEW VALUE")
            let view = quoted(arguments[0]), value = arguments[1]
            switch value.lowercased() {
            case "true", "on": return #"{"id": 1, "command": "set", "view": \#(view), "on": true}"#
            case "false", "off": return #"{"id": 1, "command": "set", "view": \#(view), "on": false}"#
            default:
                if let d = Double(value), d.isFinite { return #"{"id": 1, "command": "set", "view": \#(view), "value": \#(d)}"# }
                return #"{"id": 1, "command": "set", "view": \#(view), "label": \#(quoted(value))}"#
            }
        case "tap":
            try count(2...2, "tap X Y")
            return #"{"id": 1, "command": "tap", "x": \#(try number(arguments[0], "X")), "y": \#(try number(arguments[1], "Y"))}"#
        case "swipe":
            try count(4...5, "swipe X1 Y1 X2 Y2 [SECONDS]")
            let n = try arguments.enumerated().map { try number($0.element, ["X1", "Y1", "X2", "Y2", "SECONDS"][$0.offset]) }
            let duration = n.count == 5 ? ", \"duration\": \(n[4])" : ""
            return #"{"id": 1, "command": "swipe", "from": [\#(n[0]), \#(n[1])], "to": [\#(n[2]), \#(n[3])]\#(duration)}"#
        case "screenshot":
            try count(0...0, "screenshot --out FILE")
            guard out != nil else { throw ValidationError("usage: kiosk control screenshot --out FILE (- for standard output)") }
            return #"{"id": 1, "command": "screenshot"}"#
        case "watch":
            try count(0...0, "watch")
            return #"{"id": 1, "command": "subscribe", "events": ["control", "gesture", "state"]}"#
        case "display":
            return try displayRequest()
        case "wake":
            try count(0...0, "wake")
            return #"{"id": 1, "command": "wake"}"#
        default:
            throw ValidationError("unknown action '\(action)'; expected state, set, tap, swipe, watch, screenshot, display or wake")
        }
    }
}
