/// A config file that cannot be used, with where and why: file, line, key, the bad value and what is allowed.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    public var file: String
    /// 1-based; 0 when the problem is the file as a whole (it cannot be read).
    public var line: Int
    /// The key at fault as a path (`gesture[3].taps`, `panel.width_mm`); empty for the file or a syntax error.
    public var key: String
    public var message: String

    public init(file: String, line: Int, key: String, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    public var description: String {
        let place = line > 0 ? "\(file):\(line)" : file
        return key.isEmpty ? "\(place): \(message)" : "\(place): \(key): \(message)"
    }
}
