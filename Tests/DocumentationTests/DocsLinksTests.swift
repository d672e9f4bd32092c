import Foundation
import KioskTestSupport
import Testing

/// README.md is the short read and docs/ the reference, one file per topic: these tests keep every
/// docs/ file reachable from the README, every relative link (and its `#anchor`) pointing at
/// something there, and the README short, so moving or renaming a section cannot strand a reader.
@Suite struct DocsLinksTests {
    static let root = KioskExecutable.repositoryRoot

    static func text(_ path: String) -> String {
        (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    /// The repository's Markdown for readers: README.md, ARCHITECTURE.md and every docs/*.md.
    static let documents: [String] = {
        let pages = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)) ?? []
        return ["README.md", "ARCHITECTURE.md"] + pages.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }()

    @Test func everyDocsFileIsLinkedFromTheReadme() {
        let linked = Set(MarkdownText.links(in: Self.text("README.md")).map { $0.split(separator: "#").first.map(String.init) ?? $0 })
        let pages = Self.documents.filter { $0.hasPrefix("docs/") }
        #expect(pages.count >= 7, "docs/ holds \(pages)")
        let unlinked = pages.filter { !linked.contains($0) }
        #expect(unlinked.isEmpty, "README.md links no docs/ file of these: \(unlinked)")
    }

    /// A relative link names a file of the repository, and its `#anchor` a heading of that file.
    @Test func everyRelativeLinkResolves() {
        var broken: [String] = []
        for document in Self.documents {
            broken += MarkdownText.brokenLinks(in: Self.text(document), of: document) { Self.text($0) }
        }
        #expect(broken.isEmpty, "links that lead nowhere: \(broken)")
    }

    /// What a new user reads in ten minutes; the reference goes in docs/.
    @Test func theReadmeIsShort() {
        let lines = Self.text("README.md").split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines > 50 && lines < 300, "README.md has \(lines) lines: keep it under 300, the reference in docs/")
    }

    /// CI runs the README's test command: the README gives `swift test`, and .ci/run runs it.
    @Test func ciRunsTheReadmesTestCommand() {
        let readmeGivesIt = Self.text("README.md").contains("\nswift test  ")
        let ciRunsIt = Self.text(".ci/run").split(separator: "\n").contains("swift test")
        #expect(readmeGivesIt, "README.md's quick start gives no `swift test` line")
        #expect(ciRunsIt, ".ci/run does not run `swift test`")
    }

    /// The checks themselves: a missing file, a missing anchor and a link in code are told apart.
    @Test func aBrokenLinkIsCaught() {
        let text = """
            # Top

            [ok](README.md), [here](#top), [there](docs/running.md#running-the-kiosk), [web](https://example.org)
            [gone](docs/nowhere.md), [lost](#no-such-heading), `[code](not/a/link.md)`
            ```
            [fenced](not/a/link.md)
            ```
            """
        let broken = MarkdownText.brokenLinks(in: text, of: "README.md") { Self.text($0) }
        #expect(broken == ["README.md: docs/nowhere.md", "README.md: #no-such-heading"])
        #expect(MarkdownText.anchor(of: "Raspberry Pi OS (bookworm): swift.org's toolchain") == "raspberry-pi-os-bookworm-swiftorgs-toolchain")
        #expect(MarkdownText.anchor(of: "`kiosk run`: signals") == "kiosk-run-signals")
    }
}

/// What a Markdown text links to and which anchors its headings make (GitHub's rules).
enum MarkdownText {
    /// The lines outside fenced code blocks; without inline code spans unless `keepingCode`.
    static func prose(_ text: String, keepingCode: Bool = false) -> [String] {
        var lines: [String] = [], fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { fenced.toggle(); continue }
            if fenced { continue }
            if keepingCode { lines.append(String(line)); continue }
            lines.append(line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 0 }.map { String($0.element) }.joined())
        }
        return lines
    }

    /// Every link target of `[text](target)`, but web addresses and mail.
    static func links(in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#) else { return [] }
        return prose(text).flatMap { line -> [String] in
            let ns = line as NSString
            return regex.matches(in: line, range: NSRange(location: 0, length: ns.length)).map { ns.substring(with: $0.range(at: 1)) }
        }.filter { !$0.contains("://") && !$0.hasPrefix("mailto:") }
    }

    /// The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens.
    static func anchor(of heading: String) -> String {
        String(heading.lowercased().unicodeScalars.filter { scalar in
            CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_" || scalar == " "
        }.map(Character.init)).replacingOccurrences(of: " ", with: "-")
    }

    static func anchors(in text: String) -> Set<String> {
        Set(prose(text, keepingCode: true).compactMap { line in
            guard let space = line.firstIndex(of: " "), line.prefix(upTo: space).allSatisfy({ $0 == "#" }), !line.hasPrefix(" ") else { return nil }
            return anchor(of: line[line.index(after: space)...].trimmingCharacters(in: .whitespaces))
        })
    }

    /// The links of `document` (a path from the repository's root) that name no file, or no
    /// heading of it; `read` gives a file's text by its path from the root ("" when it is not there).
    static func brokenLinks(in text: String, of document: String, read: (String) -> String) -> [String] {
        let folder = document.split(separator: "/").dropLast().map(String.init)
        return links(in: text).filter { link in
            let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard !parts[0].isEmpty else { return !anchors(in: text).contains(parts[1]) }
            guard let path = resolve(parts[0], from: folder),
                FileManager.default.fileExists(atPath: KioskExecutable.repositoryRoot.appendingPathComponent(path).path)
            else { return true }
            return parts.count == 2 && !anchors(in: read(path)).contains(parts[1])
        }.map { "\(document): \($0)" }
    }

    /// A relative path from `folder` as a path from the repository's root; nil when it leaves it.
    static func resolve(_ relative: String, from folder: [String]) -> String? {
        var parts = folder
        for part in relative.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if parts.popLast() == nil { return nil }
            default: parts.append(String(part))
            }
        }
        return parts.joined(separator: "/")
    }
}
