import Glibc
import KioskCore
@testable import KioskLog
import Testing

/// The ring without a descriptor: `write` closures stand in for one that takes a few bytes at a time.
@Suite struct LineRingTests {
    func ring(capacity: Int, maxLineBytes: Int = 64) -> LineRing {
        LineRing(capacity: capacity, maxLineBytes: maxLineBytes, terminator: Array("\r\n".utf8))
    }

    /// Drains everything, `chunk` bytes per write, refusing every other write like a busy device.
    func drainInChunks(_ ring: inout LineRing, chunk: Int) -> String {
        var out: [UInt8] = []
        var refuse = false
        while !ring.isEmpty {
            _ = ring.drain { bytes in
                refuse.toggle()
                if refuse { return .wouldBlock }
                let taken = min(chunk, bytes.count)
                out += bytes.prefix(taken)
                return .wrote(taken)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test(arguments: [1, 2, 7])
    func holdsExactlyCapacityLinesAndDropsTheNext(capacity: Int) {
        var ring = ring(capacity: capacity)
        for index in 0..<capacity {
            let queued = ring.enqueue("line \(index)")
            #expect(queued)
        }
        #expect(ring.count == capacity)
        let queued = ring.enqueue("one too many")
        #expect(!queued)
        #expect(ring.count == capacity)
        #expect(ring.droppedLines == 1)
    }

    @Test func partialWritesResumeWithoutTearingLines() {
        var ring = ring(capacity: 4)
        for line in ["alpha", "bravo", "charlie"] { ring.enqueue(line) }
        #expect(drainInChunks(&ring, chunk: 3) == "alpha\r\nbravo\r\ncharlie\r\n")
        #expect(ring.writtenLines == 3)
    }

    @Test func theDropNoticeTakesTheFirstFreeSlotAtTheGap() {
        var ring = ring(capacity: 2)
        for line in ["kept 1", "kept 2", "lost 1", "lost 2"] { ring.enqueue(line) }
        var out = drainOneLine(&ring)
        // The freed slot went to the notice, so this line finds the ring full again.
        ring.enqueue("lost 3")
        out += drainInChunks(&ring, chunk: 100)
        ring.enqueue("after")
        out += drainInChunks(&ring, chunk: 100)
        #expect(out == "kept 1\r\nkept 2\r\ndropped 2 lines\r\ndropped 1 lines\r\nafter\r\n")
        #expect(ring.droppedLines == 3)
        #expect(ring.writtenLines == 3, "notices are not counted as written lines")
    }

    /// Lets the descriptor take one whole line, then refuses.
    func drainOneLine(_ ring: inout LineRing) -> String {
        var out: [UInt8] = []
        _ = ring.drain { bytes in
            if !out.isEmpty { return .wouldBlock }
            out += bytes
            return .wrote(bytes.count)
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test func aLongLineIsCutAtACharacterBoundary() {
        var ring = ring(capacity: 1, maxLineBytes: 32)
        // 28 ASCII bytes then two-byte characters: byte 29 would split "é".
        ring.enqueue(String(repeating: "a", count: 28) + String(repeating: "é", count: 10))
        let text = drainInChunks(&ring, chunk: 100)
        #expect(text == String(repeating: "a", count: 28) + "...\r\n")

        ring.enqueue(String(repeating: "b", count: 32))
        #expect(drainInChunks(&ring, chunk: 100) == String(repeating: "b", count: 32) + "\r\n", "a line that fits is kept whole")
    }

    @Test func aFailedWriteKeepsTheLineForTheNextDescriptor() {
        var ring = ring(capacity: 2)
        ring.enqueue("interrupted")
        var first = true
        let outcome = ring.drain { _ in
            defer { first = false }
            return first ? .wrote(4) : .wouldBlock
        }
        #expect(outcome == .blocked)
        #expect(ring.drain { _ in .failed(Errno(rawValue: EIO)) } == .failed(Errno(rawValue: EIO)))
        ring.restartHeadLine()
        #expect(drainInChunks(&ring, chunk: 100) == "interrupted\r\n")
    }
}
