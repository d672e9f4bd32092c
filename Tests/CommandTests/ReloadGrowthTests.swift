import Foundation
import KioskTestSupport
import Testing

/// Issue 21, part 5: `kiosk run` reloaded again and again does not grow. TOMLKit keeps every
/// document it parses; the built kiosk parses in a child process (KioskConfig/ConfigParsing.swift),
/// so what the parser keeps ends with the child. Before, each reload of this config kept about
/// 58 kB: 60 of them, 3.5 MB. Tests/soak.py is the long form.
@Suite struct ReloadGrowthTests {
    func residentKilobytes(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    @Test func sixtyReloadsAfterTenGrowTheProcessByLessThanAMegabyte() throws {
        let k = try KioskProcess(config: try headlessConfig(log: "repeat_interval = 0"))
        defer { _ = k.stop() }
        #expect(k.waitFor("no touchscreen yet"), "\(k.text)")
        let pid = k.pid
        func reload(_ times: Int) {
            for _ in 0..<times {
                let before = k.lines(containing: "config reloaded").count
                k.signal(SIGHUP)
                #expect(k.waitFor("config reloaded", count: before + 1), "\(k.text)")
            }
        }
        reload(10)
        let warm = try residentKilobytes(pid)
        reload(60)
        let grown = try residentKilobytes(pid) - warm
        #expect(grown < 1024, "60 reloads grew the kiosk by \(grown) kB")
    }
}
