import Foundation
import Gestures
import KioskCore
import Scene

/// A kiosk's configuration, read from one TOML file: the panel, the scene and its gesture graph.
public struct KioskConfiguration: Sendable {
    /// The file it was read from.
    public var file: String
    public var scene: SceneDescription
    /// `[display]`, `[input]`, `[log]`, `[loop]`: what `kiosk run` needs beyond the scene.
    public var runtime = RuntimeSettings()
    /// `[control]`: the control socket (ControlSection.swift).
    public var control = ControlSettings()
    /// `[[hook]]` and `[hooks]`: programs run when a control sends an event (HookSection.swift).
    public var hooks = HookSettings()
    /// `[mqtt]`; nil: no MQTT.
    public var mqtt: MQTTSettings?
    /// `[state]`: the state file kept across restarts (StateSection.swift).
    public var state = StateSettings()

    public init(file: String, scene: SceneDescription, runtime: RuntimeSettings = RuntimeSettings()) {
        self.file = file
        self.scene = scene
        self.runtime = runtime
    }

    /// The sections a config file may have: the scene's, then the runtime's.
    static let topLevelKeys = SectionKey.names

    /// The largest config file read: no kiosk's scene comes near it.
    public static let maximumFileSize = 1 << 20

    /// Reads and validates the file at `path`.
    public static func load(path: String) throws(ConfigError) -> KioskConfiguration {
        let text: String
        do {
            text = try TextFile.readText(path, what: "the config file", limit: maximumFileSize)
        } catch {
            throw ConfigError(file: path, line: error.line ?? 0, key: "", message: error.reason)
        }
        return try parse(text, file: path)
    }

    /// Reads and validates config text; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws(ConfigError) -> KioskConfiguration {
        let root = try parseTOML(text, file: file)
        let locator = KeyLocator(text)
        let top = TableReader(root, path: "", label: "the file", file: file, locator: locator)
        try top.rejectUnknownKeys(allowed: topLevelKeys)
        let section = SceneSection(file: file)

        let panel = try section.panel(try top.subtable(SectionKey.panel))
        var scene = SceneDescription(panel: panel, views: [], gestures: [])
        if let s = try top.subtable(SectionKey.scene) {
            try s.rejectUnknownKeys(allowed: SceneKey.names)
            scene.dropAnimationSeconds = try s.number(SceneKey.dropAnimation, in: 0...10, unit: " of seconds") ?? scene.dropAnimationSeconds
            scene.liftScale = try s.number(SceneKey.liftScale, in: 1...4) ?? scene.liftScale
        }

        scene.views = try views(top, section)

        let gestureTables = try top.tables(SectionKey.gesture) ?? []
        var namedGestureTables: [TableReader] = []
        for r in gestureTables {
            let g = try section.gesture(r, views: scene.views, panel: panel)
            if scene.gestures.contains(where: { $0.qualifiedName == g.qualifiedName }) {
                throw r.error(g.name == g.spec.kind.rawValue && !r.has(GestureKey.name) ? GestureKey.kind : GestureKey.name,
                              "recognizer '\(g.qualifiedName)' is declared twice; give one a different 'name'")
            }
            scene.gestures.append(g)
            var named = r
            named.shownPath = "gesture \"\(g.qualifiedName)\""
            namedGestureTables.append(named)
        }
        try GraphCheck(gestures: scene.gestures, readers: namedGestureTables).run()
        let runtime = try RuntimeSection().settings(top)
        let mqtt = try top.subtable(SectionKey.mqtt).map { r throws(ConfigError) in try MQTTSection().settings(r) }

        // Whatever the scene itself refuses is still reported against the file.
        do {
            _ = try KioskScene(scene)
        } catch {
            throw ConfigError(file: error.location.file, line: error.location.line, key: "", message: error.message)
        }
        var configuration = KioskConfiguration(file: file, scene: scene, runtime: runtime)
        configuration.control = try ControlSection().settings(top)
        configuration.hooks = try HookSection().settings(top, views: scene.views)
        configuration.mqtt = mqtt
        configuration.state = try StateSection().settings(top)
        return configuration
    }
}

extension KioskConfiguration {
    /// The `[[view]]`s in order: the root canvas first, each parent before its children, and no
    /// two the world outside could not tell apart (ViewNames.swift).
    static func views(_ top: TableReader, _ section: SceneSection) throws(ConfigError) -> [ViewDescription] {
        var views: [ViewDescription] = []
        let viewTables = try top.tables(SectionKey.view) ?? []
        guard !viewTables.isEmpty else {
            throw ConfigError(file: section.file, line: 0, key: "view", message: "no [[view]] declared; the first must be the canvas")
        }
        var names = ViewNames(mqtt: top.has(SectionKey.mqtt))
        for var r in viewTables {
            let v = try section.view(r)
            r.shownPath = "view \"\(v.name)\""
            let nameAt = SourceLocation(file: section.file, line: top.locator.line(of: r.keyPath(ViewKey.name)))
            if let collision = names.add(v.name, kind: v.kind, at: nameAt) { throw r.error(ViewKey.name, collision) }
            if views.isEmpty {
                guard v.kind == .canvas, v.parent == nil else {
                    throw r.error(nil, "the first [[view]] must be the root canvas (kind = \"canvas\", no parent)")
                }
            } else {
                guard let parent = v.parent else { throw r.error(nil, "view '\(v.name)' needs 'parent'; only the first view is the root") }
                guard views.contains(where: { $0.name == parent }) else {
                    var message = "parent '\(parent)' is not declared before view '\(v.name)'"
                    if let near = nearest(parent, among: views.map(\.name)) { message += "; did you mean '\(near)'?" }
                    throw r.error(ViewKey.parent, message)
                }
            }
            views.append(v)
        }
        return views
    }

    /// The TOML document in `text`, or why it is not TOML, at its line and column.
    static func parseTOML(_ text: String, file: String) throws(ConfigError) -> TOMLDocument {
        switch ConfigParsing.parse(text) {
        case .success(let document): return document
        case .failure(let e) where e.parserFailed:
            throw ConfigError(file: file, line: 0, key: "", message: "not read: \(e.message)")
        case .failure(let e) where e.line > 0:
            throw ConfigError(file: file, line: e.line, key: "", message: "column \(e.column): not valid TOML: \(e.message)")
        case .failure(let e):
            throw ConfigError(file: file, line: 0, key: "", message: "not valid TOML: \(e.message)")
        }
    }
}

/// The gesture graph's references resolve, and no recognizer waits for itself through others.
struct GraphCheck {
    let gestures: [GestureDescription]
    let readers: [TableReader]

    /// `from` waits for `to` to fail, because gesture `declaredBy` says so under `key`.
    private struct Edge {
        var from: Int
        var to: Int
        var declaredBy: Int
        var key: GestureKey
    }

    func run() throws(ConfigError) {
        let names = gestures.map(\.qualifiedName)
        var edges = Array(repeating: [Edge](), count: gestures.count)
        for (i, g) in gestures.enumerated() {
            for key in GestureKey.graph {
                for ref in references(g, key) {
                    let target = "\(ref.name)@\(ref.view ?? g.view)"
                    guard let j = names.firstIndex(of: target) else {
                        var message = "unknown recognizer '\(target)'"
                        if let near = nearest(target, among: names) { message += "; did you mean '\(near)'?" }
                        throw readers[i].error(key, message + " (write 'name' for one on the same view, 'name@view' for another)")
                    }
                    guard j != i else { throw readers[i].error(key, "'\(target)' names the recognizer itself") }
                    switch key {
                    case .simultaneousWith: break
                    case .shouldBeRequiredToFailBy: edges[j].append(Edge(from: j, to: i, declaredBy: i, key: key))
                    default: edges[i].append(Edge(from: i, to: j, declaredBy: i, key: key))
                    }
                }
            }
        }
        if let cycle = findCycle(edges) {
            let closing = cycle[cycle.count - 1]
            let names = cycle.map { gestures[$0.from].qualifiedName } + [gestures[closing.to].qualifiedName]
            throw readers[closing.declaredBy].error(closing.key, "failure requirements form a cycle: "
                + names.joined(separator: " waits for ") + "; each would wait for the other forever")
        }
    }

    /// The edges of a cycle in the requirements, in order, if there is one (depth-first search).
    private func findCycle(_ edges: [[Edge]]) -> [Edge]? {
        var state = Array(repeating: 0, count: edges.count)  // 0 unseen, 1 on the path, 2 done
        var path: [Edge] = []
        func visit(_ a: Int) -> [Edge]? {
            state[a] = 1
            for e in edges[a] {
                path.append(e)
                if state[e.to] == 1, let start = path.firstIndex(where: { $0.from == e.to }) { return Array(path[start...]) }
                if state[e.to] == 0, let cycle = visit(e.to) { return cycle }
                path.removeLast()
            }
            state[a] = 2
            return nil
        }
        for a in edges.indices where state[a] == 0 {
            if let cycle = visit(a) { return cycle }
        }
        return nil
    }

    private func references(_ g: GestureDescription, _ key: GestureKey) -> [RecognizerReference] {
        switch key {
        case .simultaneousWith: g.simultaneousWith
        case .requireToFail: g.requireToFail
        case .shouldRequireFailureOf: g.shouldRequireFailureOf
        default: g.shouldBeRequiredToFailBy
        }
    }
}
