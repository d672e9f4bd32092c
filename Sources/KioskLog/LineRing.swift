import KioskCore

/// Lines waiting for a descriptor that may not take them yet: preallocated slots that never grow,
/// drops counted, and a partly written line resumed where the descriptor stopped taking it.
///
/// Each line gets a fixed slot of `maxLineBytes` plus the terminator, so a line is always
/// contiguous and whole lines are what get dropped: a full ring drops the new line, never a
/// piece of one already queued. When lines were dropped, a `dropped N lines` line takes the next
/// free slot, so the notice sits exactly where the gap is.
struct LineRing {
    let capacity: Int
    let maxLineBytes: Int
    let terminator: [UInt8]
    private let slotBytes: Int
    private var storage: [UInt8]
    private var lengths: [Int]
    /// Notices are not log lines: they count neither as written nor as dropped.
    private var notices: [Bool]
    private var head = 0
    private(set) var count = 0
    /// Bytes of the head line the descriptor has already taken.
    private var headWritten = 0
    private var droppedSinceNotice = 0
    private(set) var droppedLines = 0
    private(set) var writtenLines = 0

    /// What a long line ends with once cut to fit its slot.
    static let cutMarker = Array("...".utf8)

    init(capacity: Int, maxLineBytes: Int, terminator: [UInt8]) {
        precondition(capacity > 0, "a log buffer holds at least one line")
        precondition(maxLineBytes >= 32, "a log line has room for at least 32 bytes")
        self.capacity = capacity
        self.maxLineBytes = maxLineBytes
        self.terminator = terminator
        slotBytes = maxLineBytes + terminator.count
        storage = [UInt8](repeating: 0, count: capacity * slotBytes)
        lengths = [Int](repeating: 0, count: capacity)
        notices = [Bool](repeating: false, count: capacity)
    }

    var isEmpty: Bool { count == 0 }

    /// Queues a line, or drops and counts it when every slot is taken; true when queued.
    @discardableResult
    mutating func enqueue(_ line: String) -> Bool {
        insertNoticeIfRoom()
        guard count < capacity else {
            droppedSinceNotice += 1
            droppedLines += 1
            return false
        }
        var line = line
        line.withUTF8 { store($0, notice: false) }
        return true
    }

    /// Forgets every queued line, counting them as dropped: for an output that is gone for good,
    /// where no notice will ever be read.
    mutating func discardAll() {
        for index in 0..<count where !notices[(head + index) % capacity] {
            droppedLines += 1
        }
        head = 0
        count = 0
        headWritten = 0
        droppedSinceNotice = 0
    }

    /// Counts a line that was never queued because its output is gone for good.
    mutating func countDropped() {
        droppedLines += 1
    }

    /// Starts the head line over: its first bytes went to a descriptor that is closed now, and a
    /// new one should get the line whole.
    mutating func restartHeadLine() {
        headWritten = 0
    }

    enum WriteResult {
        case wrote(Int)
        case wouldBlock
        case failed(Errno)
    }

    enum DrainOutcome: Equatable {
        case drained
        case blocked
        case failed(Errno)
    }

    /// Hands queued bytes to `write` until the ring is empty, `write` would block, or it fails.
    mutating func drain(_ write: (UnsafeRawBufferPointer) -> WriteResult) -> DrainOutcome {
        insertNoticeIfRoom()
        while count > 0 {
            let start = head * slotBytes + headWritten
            let end = head * slotBytes + lengths[head]
            let result = storage.withUnsafeBytes { write(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
            switch result {
            case .wrote(let bytes) where bytes > 0:
                headWritten += bytes
                if headWritten == lengths[head] {
                    if !notices[head] { writtenLines += 1 }
                    head = (head + 1) % capacity
                    count -= 1
                    headWritten = 0
                    insertNoticeIfRoom()
                }
            case .wrote, .wouldBlock:
                return .blocked
            case .failed(let error):
                return .failed(error)
            }
        }
        return .drained
    }

    private mutating func insertNoticeIfRoom() {
        guard droppedSinceNotice > 0, count < capacity else { return }
        var notice = "dropped \(droppedSinceNotice) lines"
        notice.withUTF8 { store($0, notice: true) }
        droppedSinceNotice = 0
    }

    private mutating func store(_ bytes: UnsafeBufferPointer<UInt8>, notice: Bool) {
        let slot = (head + count) % capacity
        let base = slot * slotBytes
        var length = 0
        storage.withUnsafeMutableBufferPointer { slots in
            func append(_ source: UnsafeBufferPointer<UInt8>) {
                guard let from = source.baseAddress, !source.isEmpty else { return }
                (slots.baseAddress! + base + length).update(from: from, count: source.count)
                length += source.count
            }
            if bytes.count <= maxLineBytes {
                append(bytes)
            } else {
                var kept = maxLineBytes - Self.cutMarker.count
                // Back up to the start of a UTF-8 sequence, so a cut never leaves half a character.
                while kept > 0, bytes[kept] & 0xC0 == 0x80 { kept -= 1 }
                append(UnsafeBufferPointer(rebasing: bytes[0..<kept]))
                Self.cutMarker.withUnsafeBufferPointer { append($0) }
            }
            terminator.withUnsafeBufferPointer { append($0) }
        }
        lengths[slot] = length
        notices[slot] = notice
        count += 1
    }
}
