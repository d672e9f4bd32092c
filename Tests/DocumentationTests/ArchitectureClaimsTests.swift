import Foundation
import KioskTestSupport
import Testing

/// ARCHITECTURE.md names files and the symbols in them; these tests keep every such name true, so
/// the map for the next engineer cannot drift from the code unnoticed.
@Suite struct ArchitectureClaimsTests {
    static let root = KioskExecutable.repositoryRoot
    static let text = (try? String(contentsOf: root.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)) ?? ""
    static let files = SourceTree(root: root)

    @Test func theDocumentIsThere() {
        #expect(Self.text.count > 1000, "ARCHITECTURE.md is missing or empty")
    }

    /// Every `Something.swift` (or script) it names is a file of the repository: a path with
    /// folders must exist as written under Sources/, Tests/ or the root; a bare name somewhere.
    @Test func everyFileItNamesExists() {
        let missing = ArchitectureText.fileNames(in: Self.text).filter { Self.files.resolve($0) == nil }
        #expect(missing.isEmpty, "ARCHITECTURE.md names files that are not in the repository: \(missing.sorted())")
    }

    /// `File.swift `symbol`` (a function, type or property named right after its file) is written
    /// in that file: its last dotted part, before any argument list.
    @Test func everySymbolItPlacesInAFileIsThere() throws {
        var wrong: [String] = []
        for claim in ArchitectureText.placedSymbols(in: Self.text) {
            guard let url = Self.files.resolve(claim.file) else { continue }  // reported by the test above
            let source = try String(contentsOf: url, encoding: .utf8)
            if !source.contains(claim.symbol) { wrong.append("\(claim.file) `\(claim.symbol)`") }
        }
        #expect(wrong.isEmpty, "ARCHITECTURE.md places symbols in files that do not hold them: \(wrong)")
    }

    /// The checks themselves: a name that is not there is found.
    @Test func aFalseClaimIsCaught() {
        let text = "KioskLoop+Input.swift `logInput`; Runtime/Nowhere.swift; KioskLoop.swift `iterate()`"
        #expect(ArchitectureText.fileNames(in: text).filter { Self.files.resolve($0) == nil } == ["Runtime/Nowhere.swift"])
        let claims = ArchitectureText.placedSymbols(in: text)
        #expect(claims.map(\.symbol) == ["logInput", "iterate"])
        let held = claims.filter { claim in
            guard let url = Self.files.resolve(claim.file), let source = try? String(contentsOf: url, encoding: .utf8) else { return false }
            return source.contains(claim.symbol)
        }
        #expect(held.map(\.symbol) == ["iterate"])
    }
}

/// What ARCHITECTURE.md's text names.
enum ArchitectureText {
    struct PlacedSymbol: Equatable {
        var file: String
        var symbol: String
    }

    static let extensions = ["swift", "sh", "py", "c"]

    /// File names and paths ending in a source or script extension.
    static func fileNames(in text: String) -> Set<String> {
        let pattern = #"[A-Za-z0-9_+/.-]+\.(swift|sh|py|c)\b"#
        return Set(matches(of: pattern, in: text).map { $0[0] }.filter { !$0.hasPrefix(".") && !$0.hasPrefix("/") })
    }

    /// `File.swift `name`` pairs; the name's last dotted part before any `(`.
    static func placedSymbols(in text: String) -> [PlacedSymbol] {
        let pattern = #"([A-Za-z0-9_+/.-]+\.swift) `([A-Za-z_][A-Za-z0-9_.]*)"#
        return matches(of: pattern, in: text).map { groups in
            PlacedSymbol(file: groups[1], symbol: String(groups[2].split(separator: ".").last ?? ""))
        }
    }

    private static func matches(of pattern: String, in text: String) -> [[String]] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { match in
            (0..<match.numberOfRanges).map { ns.substring(with: match.range(at: $0)) }
        }
    }
}

/// The repository's files, to resolve the names a document uses.
struct SourceTree {
    let root: URL
    private let relativePaths: [String]

    init(root: URL) {
        self.root = root
        var paths: [String] = []
        for top in ["Sources", "Tests", "Benchmarks", "Fuzz", "deploy", ".ci", "Tools", "Plugins"] {
            let base = root.appendingPathComponent(top)
            guard let walker = FileManager.default.enumerator(atPath: base.path) else { continue }
            while let path = walker.nextObject() as? String {
                if path.hasPrefix(".build") || path.contains("/.build") { walker.skipDescendants(); continue }
                if ArchitectureText.extensions.contains((path as NSString).pathExtension) { paths.append(top + "/" + path) }
            }
        }
        relativePaths = paths
    }

    /// The file a name means: as written under the root, Sources/ or Tests/, else the one file
    /// whose path ends with it.
    func resolve(_ name: String) -> URL? {
        for prefix in ["", "Sources/", "Tests/"] where relativePaths.contains(prefix + name) {
            return root.appendingPathComponent(prefix + name)
        }
        let ending = relativePaths.filter { $0.hasSuffix("/" + name) }
        return ending.first.map { root.appendingPathComponent($0) }
    }
}
