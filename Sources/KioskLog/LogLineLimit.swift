/// The longest line a log sink keeps whole; longer ones are cut and end with `...`.
///
/// The stats line, the longest the kiosk writes, runs to about 800 bytes with every stage and
/// input count; 1024 keeps it whole (about 90 ms of wire at 115200 baud, once a minute) and stays
/// under `PIPE_BUF`, so a line to stderr is one atomic write.
public enum LogLineLimit {
    public static let bytes = 1024
}
