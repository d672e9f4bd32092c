import Foundation
import KioskCore
import Render
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A frame as PNG bytes with cairo's writer and reader, in this process and in a forked child.
@Suite("PNG bytes: encoded here or in a child, read back")
struct PNGEncodingTests {
    /// 800x480 of a pattern no two neighbouring pixels share (X byte 0xff, as cairo leaves it).
    func frame() throws -> PixelBuffer {
        let b = try PixelBuffer(width: 800, height: 480)
        for y in 0..<b.height {
            let row = (b.bytes + y * b.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<b.width { row[x] = UInt32(truncatingIfNeeded: (x &* 2654435761) ^ (y &* 40503)) | 0xFF00_0000 }
        }
        return b
    }

    @Test func thePNGReadsBackAsTheFramesPixels() throws {
        let f = try frame()
        let png = try f.pngData()
        #expect(png.starts(with: PixelBuffer.pngSignature))
        let back = try PixelBuffer(png: png)
        #expect(back.width == 800 && back.height == 480)
        #expect(back.hasSamePixels(as: f))
    }

    @Test func aForkedChildWritesTheSameBytesDownAPipeAndExits() throws {
        let f = try frame()
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        let pid = try f.forkPNGWriter(to: ends[1]).get()
        close(ends[1])
        // Drawn over at once: the child has the frame as it was.
        memset(f.bytes, 0, f.stride * f.height)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while case let n = chunk.withUnsafeMutableBytes({ read(ends[0], $0.baseAddress, $0.count) }), n > 0 { bytes += chunk[0..<n] }
        close(ends[0])
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        #expect(status == 0)
        #expect(bytes == (try frame().pngData()))
    }

    /// An RGB565 panel's shadow buffer: the same PNG as its SIGUSR1 screenshot file (cairo widens it).
    @Test func anRGB565FrameIsTheSamePNGAsItsScreenshotFile() throws {
        let b = try PixelBuffer(width: 320, height: 240, format: .rgb565)
        for y in 0..<b.height {
            let row = (b.bytes + y * b.stride).assumingMemoryBound(to: UInt16.self)
            for x in 0..<b.width { row[x] = UInt16(truncatingIfNeeded: x &* 977 ^ y &* 131) }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-png565-\(getpid()).png").path
        defer { unlink(path) }
        try b.writePNG(to: path)
        let file = try #require(FileManager.default.contents(atPath: path))
        let png = try b.pngData()
        #expect(png == [UInt8](file))
        #expect(try PixelBuffer(png: png).width == 320)
    }

    @Test func bytesThatAreNoPNGAreRefusedSayingSo() {
        #expect(throws: DrawingResourceError.self) { try PixelBuffer(png: Array("not a png".utf8)) }
        #expect(throws: DrawingResourceError.self) { try PixelBuffer(png: Array(try frame().pngData().prefix(100))) }
    }
}
