import Foundation
import KioskCore
import KioskTestSupport
import Render
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `kiosk control screenshot` against a running `kiosk run` (headless): the PNG made in a forked
/// child of the real kiosk, carried in the socket's reply, written by the client.
@Suite("kiosk control screenshot against kiosk run")
struct ScreenshotCommandTests {
    func control(_ path: String, _ arguments: [String]) throws -> Finished {
        try runToEnd(kioskExecutable, ["control", "--socket", path] + arguments)
    }

    @Test func theScreenshotIsTheFrameThePanelShowsAndComesAtMostEveryTwoSeconds() throws {
        let k = try KioskProcess(config: try headlessConfig(log: "stats_interval = 1\n", tail: "[control]\nsocket = \"@FOLDER@/control.sock\"\n"))
        defer { _ = k.stop() }
        let path = k.folder.appendingPathComponent("control.sock").path
        #expect(k.waitFor("control socket listening"), "\(k.text)")
        #expect(try control(path, ["set", "slider", "0.25"]).status == 0)
        let file = k.folder.appendingPathComponent("shot.png").path
        let shot = try control(path, ["screenshot", "--out", file])
        #expect(shot.status == 0, "\(shot.stderr)")
        let png = try PixelBuffer(contentsOfPNG: file)
        #expect(png.width == 800 && png.height == 480)
        // SIGUSR1's screenshot is the same shadow buffer, written in place by the loop.
        k.signal(SIGUSR1)
        #expect(k.waitFor("SIGUSR1: screenshot written"), "\(k.text)")
        let written = try FileManager.default.contentsOfDirectory(atPath: k.folder.path).first { $0.hasPrefix("kiosk-") && $0.hasSuffix(".png") }
        let reference = try PixelBuffer(contentsOfPNG: k.folder.appendingPathComponent(written ?? "none").path)
        #expect(png.hasSamePixels(as: reference), "the socket's screenshot differs from SIGUSR1's")
        // At once again: refused, saying when the next may come, and counted on the stats line.
        let again = try control(path, ["screenshot", "--out", file + ".2"])
        #expect(again.status == 1)
        #expect(again.stderr.contains("at most one screenshot every 2.0 s"), "\(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file + ".2"))
        #expect(k.waitFor("screenshots=1/1"), "\(k.text)")
        // Without --out: a usage error, nothing asked of the kiosk.
        let usage = try control(path, ["screenshot"])
        #expect(usage.status != 0 && usage.status != 1)
        #expect(usage.stderr.contains("usage: kiosk control screenshot --out FILE"), "\(usage.stderr)")
    }
}
