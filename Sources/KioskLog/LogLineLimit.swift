/// The longest line a log sink keeps whole; longer ones are cut and end with `...`.
///
/// The stats line, the longest the kiosk writes, runs to about 1040 bytes at its worst with every
/// stage, input count and extension's counters (ExtensionStatsTests); 1280 keeps it whole with
/// room (about 110 ms of wire at 115200 baud, once a minute) and stays under `PIPE_BUF`, so a line
/// to stderr is one atomic write. Each sink holds `buffer_lines` slots of this size (320 KiB at 256).
public enum LogLineLimit {
    public static let bytes = 1280
}
