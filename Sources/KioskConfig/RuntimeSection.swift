/// Reads `[display]`, `[input]`, `[log]` and `[loop]` into `RuntimeSettings`.
struct RuntimeSection {
    static let logKeys = LogKey.names

    /// `card = "headless"`: draw into memory, open no DRM device.
    static let headlessCard = "headless"
    /// `serial = "none"`: log to stderr only.
    static let noSerial = "none"
    static let rotations = [0, 90, 180, 270]
    static let rotationMeaning = " (degrees clockwise)"
    /// The rates a Linux serial port takes (termios B1200 ... B921600) that a Pi's UARTs run at.
    static let baudRates = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115_200, 230_400, 460_800, 921_600]
    /// How far the stage shares may sum from 1, for shares written with a few decimals.
    static let shareTolerance = 0.001

    /// Seconds for the display's blanking and the stats line: up to a day.
    static let day = 86_400.0
    /// The largest number in a calibration matrix: one that maps a hundredth of the panel onto all of it.
    static let calibrationLimit = 100.0

    func settings(_ top: TableReader) throws(ConfigError) -> RuntimeSettings {
        var s = RuntimeSettings()
        if let r = try top.subtable(SectionKey.display) { s.display = try display(r) }
        if let r = try top.subtable(SectionKey.input) { s.input = try input(r) }
        if let r = try top.subtable(SectionKey.log) { s.log = try log(r) }
        if let r = try top.subtable(SectionKey.loop) { s.loop = try loop(r) }
        return s
    }

    func display(_ r: TableReader) throws(ConfigError) -> DisplaySettings {
        try r.rejectUnknownKeys(allowed: DisplayKey.names)
        var d = DisplaySettings()
        d.card = try devicePath(r, DisplayKey.card, example: "/dev/dri/card1", keyword: Self.headlessCard, meaning: "draw into memory only")
        d.connector = try nonEmptyString(r, DisplayKey.connector, example: "\"HDMI-A-1\" or \"DSI-1\"")
        if let mode = try r.string(DisplayKey.mode) {
            guard Self.isMode(mode) else {
                throw r.error(DisplayKey.mode, "'\(mode)' is not a mode; expected \"WxH\" or \"WxH@R\" in whole numbers greater than 0, "
                    + "W and H up to 16384, R up to 1000, such as \"800x480\" or \"800x480@60\"")
            }
            d.mode = mode
        }
        if let name = try r.choice(DisplayKey.pixelFormat, DisplaySettings.PixelFormatName.allCases.map(\.rawValue)),
           let format = DisplaySettings.PixelFormatName(rawValue: name) {
            d.pixelFormat = format
        }
        d.rotation = try r.int(DisplayKey.rotation, oneOf: Self.rotations, meaning: Self.rotationMeaning) ?? d.rotation
        d.blankAfterSeconds = try r.number(DisplayKey.blankAfter, in: 0...Self.day, unit: " of seconds") ?? d.blankAfterSeconds
        d.backlight = try backlightName(r)
        if let font = try nonEmptyString(r, DisplayKey.font, example: "\"\(d.font)\"") {
            // Checked here so that check-config, not the first frame, finds a font that is not there.
            if let problem = FontFile.problem(font) {
                throw r.error(DisplayKey.font, "\(problem); expected a font file FreeType reads, such as \"\(d.font)\"")
            }
            d.font = font
        }
        d.screenshotDirectory = try nonEmptyString(r, DisplayKey.screenshotDirectory, example: "\"\(d.screenshotDirectory)\"") ?? d.screenshotDirectory
        return d
    }

    /// `[display] backlight`: a folder's name under the backlight class, never a path. Whether it
    /// is there is the loop's to find (sysfs is the running machine's, not the checker's).
    func backlightName(_ r: TableReader) throws(ConfigError) -> String? {
        guard let name = try nonEmptyString(r, DisplayKey.backlight, example: "\"rpi_backlight\" or \"11-0045\"") else { return nil }
        guard !name.contains("/"), name != ".", name != ".." else {
            throw r.error(DisplayKey.backlight, "'\(name)' is not a backlight's name; expected a name under /sys/class/backlight, such as \"rpi_backlight\"")
        }
        return name
    }

    func input(_ r: TableReader) throws(ConfigError) -> InputSettings {
        try r.rejectUnknownKeys(allowed: InputKey.names)
        var i = InputSettings()
        i.device = try nonEmptyString(r, InputKey.device, example: "\"/dev/input/event2\" or a device name such as \"generic ft5x06 (79)\"")
        i.directory = try nonEmptyString(r, InputKey.directory, example: "\"\(i.directory)\"") ?? i.directory
        i.grab = try r.bool(InputKey.grab) ?? i.grab
        if let m = try r.numbers(InputKey.calibration, count: 6, meaning: "libinput's calibration matrix [a, b, c, d, e, f]") {
            guard m.allSatisfy({ abs($0) <= Self.calibrationLimit }) else {
                throw r.error(InputKey.calibration, "every number must be from -\(Int(Self.calibrationLimit)) to \(Int(Self.calibrationLimit)), found \(m)")
            }
            i.calibration = m
        }
        i.pointercal = try nonEmptyString(r, InputKey.pointercal, example: "\"/etc/pointercal\"")
        if i.calibration != nil, i.pointercal != nil {
            // Reported where the second of the two is written: that is the line to delete.
            let calibrationLine = r.locator.line(of: r.keyPath(InputKey.calibration))
            let pointercalLine = r.locator.line(of: r.keyPath(InputKey.pointercal))
            let (second, first, firstLine) = calibrationLine > pointercalLine
                ? (InputKey.calibration, InputKey.pointercal, pointercalLine) : (InputKey.pointercal, InputKey.calibration, calibrationLine)
            throw r.error(second, "'\(first.name)' is already given on line \(firstLine); give calibration or pointercal, not both")
        }
        i.rotation = try r.int(InputKey.rotation, oneOf: Self.rotations, meaning: Self.rotationMeaning) ?? i.rotation
        i.flipX = try r.bool(InputKey.flipX) ?? i.flipX
        i.flipY = try r.bool(InputKey.flipY) ?? i.flipY
        i.jitterUnits = try r.int(InputKey.jitter, in: 0...Int(Int32.max)) ?? i.jitterUnits
        // evdev's values are 32-bit.
        i.minimumPressure = try r.int(InputKey.minimumPressure, in: 0...Int(Int32.max)) ?? i.minimumPressure
        try InputFilterKeys.read(r, into: &i)
        return i
    }

    func log(_ r: TableReader) throws(ConfigError) -> LogSettings {
        try r.rejectUnknownKeys(allowed: LogKey.names)
        var l = LogSettings()
        if let serial = try devicePath(r, LogKey.serial, example: "/dev/serial0", keyword: Self.noSerial, meaning: "log to stderr only") {
            l.serial = serial == Self.noSerial ? nil : serial
        }
        l.baud = try r.int(LogKey.baud, oneOf: Self.baudRates) ?? l.baud
        if let name = try r.choice(LogKey.level, LogSettings.Level.allCases.map(\.rawValue)), let level = LogSettings.Level(rawValue: name) {
            l.level = level
        }
        l.stderr = try r.bool(LogKey.stderr) ?? l.stderr
        l.bufferLines = try r.int(LogKey.bufferLines, in: 16...65536) ?? l.bufferLines
        l.repeatInterval = try r.number(LogKey.repeatInterval, in: 0...3600, unit: " of seconds") ?? l.repeatInterval
        // A stats line more often than every second would be most of what a 115200 baud console shows.
        l.statsInterval = try r.number(LogKey.statsInterval, allowed: "0 (no stats line) or a number of seconds from 1 to 86400") {
            $0 == 0 || ($0 >= 1 && $0 <= Self.day)
        } ?? l.statsInterval
        return l
    }

    func loop(_ r: TableReader) throws(ConfigError) -> LoopSettings {
        try r.rejectUnknownKeys(allowed: LoopKey.names)
        var l = LoopSettings()
        l.frameBudgetMilliseconds = try r.number(LoopKey.frameBudget, in: Double.leastNonzeroMagnitude...1000, unit: " of milliseconds")
        if let stages = try r.subtable(LoopKey.stages) {
            l.stageShares = try stageShares(stages)
        }
        return l
    }

    /// All six stages, each with a share greater than 0, the shares summing to 1: a budget split
    /// that is written out whole, so no share is a default the reader has to know.
    private func stageShares(_ r: TableReader) throws(ConfigError) -> [LoopSettings.Stage: Double] {
        let names = LoopSettings.Stage.names
        try r.rejectUnknownKeys(allowed: names)
        var shares: [LoopSettings.Stage: Double] = [:]
        for stage in LoopSettings.Stage.allCases {
            shares[stage] = try r.number(stage, in: Double.leastNonzeroMagnitude...1)
        }
        let missing = LoopSettings.Stage.allCases.filter { !r.has($0) }.map(\.name)
        guard missing.isEmpty else {
            throw r.error(nil, "\(r.label) must give all six stages' shares (\(names.joined(separator: ", "))); "
                + "missing: \(missing.joined(separator: ", "))")
        }
        let sum = LoopSettings.Stage.allCases.reduce(0) { $0 + (shares[$1] ?? 0) }
        guard abs(sum - 1) <= Self.shareTolerance else {
            throw r.error(nil, "the shares sum to \(rounded(sum)); they must sum to 1 (within \(Self.shareTolerance))")
        }
        return shares
    }

    /// `800x480` or `800x480@60`: digits only (no sign, no spaces), each number greater than 0,
    /// the size at most 16384 (as `[panel]`), the refresh at most 1000 Hz.
    static func isMode(_ text: String) -> Bool {
        func number(_ s: Substring, upTo limit: Int) -> Bool {
            !s.isEmpty && s.allSatisfy { $0.isASCII && $0.isNumber } && (Int(s).map { $0 > 0 && $0 <= limit } ?? false)
        }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.count == 1 || number(parts[1], upTo: 1000) else { return false }
        let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        return size.count == 2 && number(size[0], upTo: 16384) && number(size[1], upTo: 16384)
    }

    /// A device node's absolute path, or `keyword`; a misspelt keyword is named.
    private func devicePath(_ r: TableReader, _ key: any ConfigKeyName, example: String, keyword: String, meaning: String) throws(ConfigError) -> String? {
        guard let s = try r.string(key) else { return nil }
        if s == keyword { return s }
        guard s.hasPrefix("/") else {
            let message = "'\(s)' is neither a device path nor '\(keyword)'"
                + (nearest(s, among: [keyword]).map { "; did you mean '\($0)'?" } ?? ".")
            throw r.error(key, message + " Allowed: an absolute path such as \"\(example)\", or \"\(keyword)\" (\(meaning))")
        }
        return s
    }

    private func nonEmptyString(_ r: TableReader, _ key: any ConfigKeyName, example: String) throws(ConfigError) -> String? {
        guard let s = try r.string(key) else { return nil }
        guard !s.isEmpty else { throw r.error(key, "must not be empty; expected \(example), or leave the key out") }
        return s
    }

    /// A sum as a person would write it: 0.95, not 0.9500000000000001.
    private func rounded(_ x: Double) -> String {
        String((x * 1_000_000).rounded() / 1_000_000)
    }
}
