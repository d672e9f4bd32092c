import CLinuxInput
import KioskCore

extension EvemuTrace {
    /// Reads a trace as evemu-record writes it; `file` names the trace in errors.
    ///
    /// Accepts `A:` lines with or without the resolution whatever the declared version, `L:` and
    /// `S:` lines, comments (whole lines, and after an event), blank lines and CRLF line ends.
    public static func parse(_ text: String, file: String) throws(EvemuParseError) -> EvemuTrace {
        try parse(bytes: Array(text.utf8), file: file)
    }

    /// Reads a trace from the bytes of its file: they must be UTF-8 text, as evemu-record writes
    /// (a UTF-8 byte order mark is skipped); UTF-16, a binary file or an empty one is refused with
    /// the line and column where it shows.
    public static func parse(bytes: [UInt8], file: String) throws(EvemuParseError) -> EvemuTrace {
        let notEvemu = "this is not an evemu recording, which is UTF-8 text starting with \(EvemuParser.nameForm)"
        guard !bytes.isEmpty else { throw EvemuParseError(file: file, line: 1, message: "the file is empty: \(notEvemu)") }
        if bytes.starts(with: [0xff, 0xfe]) || bytes.starts(with: [0xfe, 0xff]) {
            throw EvemuParseError(file: file, line: 1, message: "the file starts with a UTF-16 byte order mark: \(notEvemu)"
                                  + " (convert it with 'iconv -f UTF-16 -t UTF-8')")
        }
        let body = bytes.starts(with: [0xef, 0xbb, 0xbf]) ? Array(bytes.dropFirst(3)) : bytes
        if let (line, column, byte) = TextFile.firstInvalidUTF8(body, orNUL: true) {
            // NUL is UTF-8, but no text holds one; UTF-16 and binary files are full of them.
            let problem = byte == 0 ? "a NUL byte, as in UTF-16 or a binary file" : "byte 0x\(String(byte, radix: 16)) is not UTF-8"
            throw EvemuParseError(file: file, line: line, message: "column \(column): \(problem): \(notEvemu)")
        }
        return try parse(validated: body, file: file)
    }

    private static func parse(validated bytes: [UInt8], file: String) throws(EvemuParseError) -> EvemuTrace {
        var parser = EvemuParser(file: file)
        var lineNumber = 0
        var start = bytes.startIndex
        while start < bytes.endIndex {
            lineNumber += 1
            let end = bytes[start...].firstIndex(of: EvemuParser.newline) ?? bytes.endIndex
            try parser.read(bytes[start..<end], number: lineNumber)
            start = end + 1
        }
        return try parser.finish(lastLine: lineNumber)
    }
}

/// The state of reading one trace, line by line.
struct EvemuParser {
    static let newline = UInt8(ascii: "\n")

    /// evemu's order: the name, the id, then the bitmasks and ranges, then events.
    enum Stage { case expectingName, expectingID, header, events }

    static let eventForm = "'E: seconds type code value'"
    static let nameForm = "'N: device name'"
    static let idForm = "'I: bus vendor product version' (four hex numbers)"

    let file: String
    var stage = Stage.expectingName
    var sawFirstLine = false
    var version = EvemuFormatVersion.unversioned
    var device = DeviceDescription(name: "")
    /// How many mask bytes each type's `B:` lines have given so far: the next line continues there.
    var maskBytes: [EventType: Int] = [:]
    var propertyBytes = 0
    var ledStates: [EventCode: Int32] = [:]
    var switchStates: [EventCode: Int32] = [:]
    var events: [InputEvent] = []

    init(file: String) { self.file = file }

    mutating func read(_ raw: ArraySlice<UInt8>, number: Int) throws(EvemuParseError) {
        let line = Self.trimmed(raw)
        guard let first = line.first else { return }
        let isFirstLine = !sawFirstLine
        sawFirstLine = true
        if first == UInt8(ascii: "#") {
            // Like evemu, only the first line can declare the version.
            if isFirstLine, let declared = Self.version(in: line) { version = declared }
            return
        }
        var fields = FieldScanner(line)
        let tag = fields.tag()
        switch (stage, tag) {
        case (.expectingName, "N"):
            device.name = fields.remainder()
            stage = .expectingID
        case (.expectingName, _):
            throw error(number, "expected \(Self.nameForm) first", line)
        case (.expectingID, "I"):
            try readID(&fields, line, number)
            stage = .header
        case (.expectingID, _):
            throw error(number, "expected \(Self.idForm)", line)
        case (.header, "P"):
            try readProperties(&fields, line, number)
        case (.header, "B"):
            try readMask(&fields, line, number)
        case (.header, "A"):
            try readAxis(&fields, line, number)
        case (.header, "L"):
            let (code, state) = try readState(&fields, line, number, form: "'L: code state'")
            ledStates[code] = state
        case (.header, "S"):
            let (code, state) = try readState(&fields, line, number, form: "'S: code state'")
            switchStates[code] = state
        case (.header, "E"), (.events, "E"):
            stage = .events
            events.append(try readEvent(&fields, line, number))
        case (.header, _):
            throw error(number, "expected a header line (P:, B:, A:, L:, S:) or \(Self.eventForm)", line)
        case (.events, _):
            throw error(number, "expected \(Self.eventForm)", line)
        }
    }

    func finish(lastLine: Int) throws(EvemuParseError) -> EvemuTrace {
        switch stage {
        case .expectingName:
            throw EvemuParseError(file: file, line: lastLine + 1, message: "expected \(Self.nameForm), found end of file")
        case .expectingID:
            throw EvemuParseError(file: file, line: lastLine + 1, message: "expected \(Self.idForm), found end of file")
        case .header, .events:
            return EvemuTrace(
                device: device, events: events, formatVersion: version, ledStates: ledStates,
                switchStates: switchStates)
        }
    }

    // MARK: Lines

    private mutating func readID(_ fields: inout FieldScanner, _ line: ArraySlice<UInt8>, _ number: Int) throws(EvemuParseError) {
        var numbers: [UInt16] = []
        while let token = fields.next() {
            guard let value = Self.hex(token, maximum: UInt32(UInt16.max)) else {
                throw error(number, "expected \(Self.idForm)", line)
            }
            numbers.append(UInt16(value))
        }
        guard numbers.count == 4 else { throw error(number, "expected \(Self.idForm)", line) }
        device.bus = numbers[0]
        device.vendor = numbers[1]
        device.product = numbers[2]
        device.version = numbers[3]
    }

    private mutating func readProperties(_ fields: inout FieldScanner, _ line: ArraySlice<UInt8>, _ number: Int) throws(EvemuParseError) {
        let form = "'P:' and 8 hex bytes"
        guard let bytes = Self.bytes(&fields, count: 8) else { throw error(number, "expected \(form)", line) }
        for (index, byte) in bytes.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                let property = (propertyBytes + index) * 8 + bit
                guard property < InputProperties.count else {
                    throw error(number, "expected property bits below \(InputProperties.count) (INPUT_PROP_CNT)", line)
                }
                device.properties.insert(InputProperties(bit: property))
            }
        }
        propertyBytes += 8
    }

    private mutating func readMask(_ fields: inout FieldScanner, _ line: ArraySlice<UInt8>, _ number: Int) throws(EvemuParseError) {
        let form = "'B: type' and 8 hex bytes"
        guard let typeToken = fields.next(), let rawType = Self.hex(typeToken, maximum: UInt32(EventType.count - 1)),
              let bytes = Self.bytes(&fields, count: 8)
        else { throw error(number, "expected \(form) (type below 0x\(String(EventType.count, radix: 16)))", line) }
        let type = EventType(rawValue: UInt16(rawType))
        let offset = maskBytes[type, default: 0]
        for (index, byte) in bytes.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                let code = (offset + index) * 8 + bit
                guard code <= Int(UInt16.max) else { throw error(number, "expected at most 8192 'B:' lines per type", line) }
                device.enable(EventCode(rawValue: UInt16(code)), of: type)
            }
        }
        maskBytes[type] = offset + 8
    }

    private mutating func readAxis(_ fields: inout FieldScanner, _ line: ArraySlice<UInt8>, _ number: Int) throws(EvemuParseError) {
        let form = "'A: code min max fuzz flat [resolution]' (code hex up to ABS_MAX, then 4 or 5 decimal numbers)"
        guard let codeToken = fields.next() else { throw error(number, "expected \(form)", line) }
        guard let code = Self.hex(codeToken, maximum: UInt32(ABS_MAX)) else {
            throw error(number, "expected \(form): the code " + Self.hexProblem(codeToken, maximum: UInt32(ABS_MAX), name: "ABS_MAX"), line)
        }
        let names = ["min", "max", "fuzz", "flat", "resolution"]
        var numbers: [Int32] = []
        while let token = fields.next() {
            guard numbers.count < names.count else { throw error(number, "expected \(form): more than 5 numbers", line) }
            guard let value = Self.decimal(token) else {
                throw error(number, "expected \(form): \(names[numbers.count]) " + Self.decimalProblem(token), line)
            }
            numbers.append(value)
        }
        // evemu before 1.2 wrote no resolution; accept either form whatever the file declared.
        guard numbers.count == 4 || numbers.count == 5 else { throw error(number, "expected \(form)", line) }
        let axis = AbsoluteAxis(rawValue: UInt16(code))
        guard numbers[0] <= numbers[1] else {
            throw error(number, "\(axis.name): min \(numbers[0]) is above max \(numbers[1]); expected min <= max", line)
        }
        let info = AxisInfo(
            minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3],
            resolution: numbers.count == 5 ? numbers[4] : 0)
        device.setAxis(axis, info)
    }

    private func readState(
        _ fields: inout FieldScanner, _ line: ArraySlice<UInt8>, _ number: Int, form: String
    ) throws(EvemuParseError) -> (EventCode, Int32) {
        guard let codeToken = fields.next(), let code = Self.hex(codeToken, maximum: UInt32(UInt16.max)),
              let stateToken = fields.next(), let state = Self.decimal(stateToken), fields.isAtEnd
        else { throw error(number, "expected \(form)", line) }
        return (EventCode(rawValue: UInt16(code)), state)
    }

    private func readEvent(_ fields: inout FieldScanner, _ line: ArraySlice<UInt8>, _ number: Int) throws(EvemuParseError) -> InputEvent {
        let expected = "expected \(Self.eventForm)"
        guard let timeToken = fields.next(), let typeToken = fields.next(), let codeToken = fields.next(),
              let valueToken = fields.next()
        else { throw error(number, expected, line) }
        guard let microseconds = Self.microseconds(timeToken) else {
            throw error(number, "\(expected): the time '\(Self.text(timeToken))' is not seconds.microseconds"
                        + " (up to 12 digits, a point, 1 to 6 digits)", line)
        }
        guard let type = Self.hex(typeToken, maximum: UInt32(UInt16.max)) else {
            throw error(number, "\(expected): the type " + Self.hexProblem(typeToken, maximum: UInt32(UInt16.max), name: nil), line)
        }
        guard let code = Self.hex(codeToken, maximum: UInt32(UInt16.max)) else {
            throw error(number, "\(expected): the code " + Self.hexProblem(codeToken, maximum: UInt32(UInt16.max), name: nil), line)
        }
        guard let value = Self.decimal(valueToken) else {
            throw error(number, "\(expected): the value " + Self.decimalProblem(valueToken), line)
        }
        guard fields.isAtEndOrComment else { throw error(number, "\(expected): more after the value", line) }
        return InputEvent(
            time: Instant(microseconds: microseconds), type: EventType(rawValue: UInt16(type)),
            code: EventCode(rawValue: UInt16(code)), value: value)
    }

    private func error(_ number: Int, _ expectation: String, _ line: ArraySlice<UInt8>) -> EvemuParseError {
        var found = String(decoding: line, as: UTF8.self)
        if found.count > 160 { found = String(found.prefix(160)) + "..." }
        return EvemuParseError(file: file, line: number, message: "\(expectation), found '\(found)'")
    }
}
