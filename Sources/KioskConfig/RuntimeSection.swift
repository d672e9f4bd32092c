/// Reads `[display]`, `[input]`, `[log]` and `[loop]` into `RuntimeSettings`.
struct RuntimeSection {
    static let sections = ["display", "input", "log", "loop"]
    static let displayKeys = ["card", "connector", "mode", "pixel_format", "rotation", "blank_after", "font", "screenshot_directory"]
    static let inputKeys = ["device", "directory", "grab", "calibration", "pointercal", "rotation", "flip_x", "flip_y",
                            "jitter", "minimum_pressure"] + InputFilterKeys.keys
    static let logKeys = ["serial", "baud", "level", "stderr", "buffer_lines", "repeat_interval", "stats_interval"]
    static let loopKeys = ["frame_budget", "stages"]

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
        if let r = try top.subtable("display") { s.display = try display(r) }
        if let r = try top.subtable("input") { s.input = try input(r) }
        if let r = try top.subtable("log") { s.log = try log(r) }
        if let r = try top.subtable("loop") { s.loop = try loop(r) }
        return s
    }

    func display(_ r: TableReader) throws(ConfigError) -> DisplaySettings {
        try r.rejectUnknownKeys(allowed: Self.displayKeys)
        var d = DisplaySettings()
        d.card = try devicePath(r, "card", example: "/dev/dri/card1", keyword: Self.headlessCard, meaning: "draw into memory only")
        d.connector = try nonEmptyString(r, "connector", example: "\"HDMI-A-1\" or \"DSI-1\"")
        if let mode = try r.string("mode") {
            guard Self.isMode(mode) else {
                throw r.error("mode", "'\(mode)' is not a mode; expected \"WxH\" or \"WxH@R\" in whole numbers greater than 0, "
                    + "W and H up to 16384, R up to 1000, such as \"800x480\" or \"800x480@60\"")
            }
            d.mode = mode
        }
        if let name = try r.choice("pixel_format", DisplaySettings.PixelFormatName.allCases.map(\.rawValue)),
           let format = DisplaySettings.PixelFormatName(rawValue: name) {
            d.pixelFormat = format
        }
        d.rotation = try r.int("rotation", oneOf: Self.rotations, meaning: Self.rotationMeaning) ?? d.rotation
        d.blankAfterSeconds = try r.number("blank_after", in: 0...Self.day, unit: " of seconds") ?? d.blankAfterSeconds
        if let font = try nonEmptyString(r, "font", example: "\"\(d.font)\"") {
            // Checked here so that check-config, not the first frame, finds a font that is not there.
            if let problem = FontFile.problem(font) {
                throw r.error("font", "\(problem); expected a font file FreeType reads, such as \"\(d.font)\"")
            }
            d.font = font
        }
        d.screenshotDirectory = try nonEmptyString(r, "screenshot_directory", example: "\"\(d.screenshotDirectory)\"") ?? d.screenshotDirectory
        return d
    }

    func input(_ r: TableReader) throws(ConfigError) -> InputSettings {
        try r.rejectUnknownKeys(allowed: Self.inputKeys)
        var i = InputSettings()
        i.device = try nonEmptyString(r, "device", example: "\"/dev/input/event2\" or a device name such as \"generic ft5x06 (79)\"")
        i.directory = try nonEmptyString(r, "directory", example: "\"\(i.directory)\"") ?? i.directory
        i.grab = try r.bool("grab") ?? i.grab
        if let m = try r.numbers("calibration", count: 6, meaning: "libinput's calibration matrix [a, b, c, d, e, f]") {
            guard m.allSatisfy({ abs($0) <= Self.calibrationLimit }) else {
                throw r.error("calibration", "every number must be from -\(Int(Self.calibrationLimit)) to \(Int(Self.calibrationLimit)), found \(m)")
            }
            i.calibration = m
        }
        i.pointercal = try nonEmptyString(r, "pointercal", example: "\"/etc/pointercal\"")
        if i.calibration != nil, i.pointercal != nil {
            // Reported where the second of the two is written: that is the line to delete.
            let calibrationLine = r.locator.line(of: r.keyPath("calibration"))
            let pointercalLine = r.locator.line(of: r.keyPath("pointercal"))
            let (second, first, firstLine) = calibrationLine > pointercalLine
                ? ("calibration", "pointercal", pointercalLine) : ("pointercal", "calibration", calibrationLine)
            throw r.error(second, "'\(first)' is already given on line \(firstLine); give calibration or pointercal, not both")
        }
        i.rotation = try r.int("rotation", oneOf: Self.rotations, meaning: Self.rotationMeaning) ?? i.rotation
        i.flipX = try r.bool("flip_x") ?? i.flipX
        i.flipY = try r.bool("flip_y") ?? i.flipY
        i.jitterUnits = try r.int("jitter", in: 0...Int(Int32.max)) ?? i.jitterUnits
        // evdev's values are 32-bit.
        i.minimumPressure = try r.int("minimum_pressure", in: 0...Int(Int32.max)) ?? i.minimumPressure
        try InputFilterKeys.read(r, into: &i)
        return i
    }

    func log(_ r: TableReader) throws(ConfigError) -> LogSettings {
        try r.rejectUnknownKeys(allowed: Self.logKeys)
        var l = LogSettings()
        if let serial = try devicePath(r, "serial", example: "/dev/serial0", keyword: Self.noSerial, meaning: "log to stderr only") {
            l.serial = serial == Self.noSerial ? nil : serial
        }
        l.baud = try r.int("baud", oneOf: Self.baudRates) ?? l.baud
        if let name = try r.choice("level", LogSettings.Level.allCases.map(\.rawValue)), let level = LogSettings.Level(rawValue: name) {
            l.level = level
        }
        l.stderr = try r.bool("stderr") ?? l.stderr
        l.bufferLines = try r.int("buffer_lines", in: 16...65536) ?? l.bufferLines
        l.repeatInterval = try r.number("repeat_interval", in: 0...3600, unit: " of seconds") ?? l.repeatInterval
        // A stats line more often than every second would be most of what a 115200 baud console shows.
        l.statsInterval = try r.number("stats_interval", allowed: "0 (no stats line) or a number of seconds from 1 to 86400") {
            $0 == 0 || ($0 >= 1 && $0 <= Self.day)
        } ?? l.statsInterval
        return l
    }

    func loop(_ r: TableReader) throws(ConfigError) -> LoopSettings {
        try r.rejectUnknownKeys(allowed: Self.loopKeys)
        var l = LoopSettings()
        l.frameBudgetMilliseconds = try r.number("frame_budget", in: Double.leastNonzeroMagnitude...1000, unit: " of milliseconds")
        if let stages = try r.subtable("stages") {
            l.stageShares = try stageShares(stages)
        }
        return l
    }

    /// All six stages, each with a share greater than 0, the shares summing to 1: a budget split
    /// that is written out whole, so no share is a default the reader has to know.
    private func stageShares(_ r: TableReader) throws(ConfigError) -> [LoopSettings.Stage: Double] {
        let names = LoopSettings.Stage.allCases.map(\.rawValue)
        try r.rejectUnknownKeys(allowed: names)
        var shares: [LoopSettings.Stage: Double] = [:]
        for stage in LoopSettings.Stage.allCases {
            shares[stage] = try r.number(stage.rawValue, in: Double.leastNonzeroMagnitude...1)
        }
        let missing = names.filter { !r.has($0) }
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
    private func devicePath(_ r: TableReader, _ key: String, example: String, keyword: String, meaning: String) throws(ConfigError) -> String? {
        guard let s = try r.string(key) else { return nil }
        if s == keyword { return s }
        guard s.hasPrefix("/") else {
            let message = "'\(s)' is neither a device path nor '\(keyword)'"
                + (nearest(s, among: [keyword]).map { "; did you mean '\($0)'?" } ?? ".")
            throw r.error(key, message + " Allowed: an absolute path such as \"\(example)\", or \"\(keyword)\" (\(meaning))")
        }
        return s
    }

    private func nonEmptyString(_ r: TableReader, _ key: String, example: String) throws(ConfigError) -> String? {
        guard let s = try r.string(key) else { return nil }
        guard !s.isEmpty else { throw r.error(key, "must not be empty; expected \(example), or leave the key out") }
        return s
    }

    /// A sum as a person would write it: 0.95, not 0.9500000000000001.
    private func rounded(_ x: Double) -> String {
        String((x * 1_000_000).rounded() / 1_000_000)
    }
}
