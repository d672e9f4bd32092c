/// `[input]`'s filters for bad panels: `minimum_touch_duration`, `maximum_touch_size`, `ignore`.
enum InputFilterKeys {
    /// A ghost tap lasts a frame or two; a second is longer than any tap a person makes.
    static let longestMinimumDuration = 1.0
    /// Larger than any panel's contact report: a limit above it is no limit.
    static let largestTouchSize = 1000.0
    /// Regions kept to what a config needs; each costs a test per new touch.
    static let mostRegions = 64
    /// As a view's frame: edges within ±65536 pixels.
    static let edge = 65536.0

    static func read(_ r: TableReader, into i: inout InputSettings) throws(ConfigError) {
        i.minimumTouchDuration = try r.number(InputKey.minimumTouchDuration, in: 0...longestMinimumDuration, unit: " of seconds")
            ?? i.minimumTouchDuration
        i.maximumTouchSizeMillimetres = try r.number(InputKey.maximumTouchSize, in: Double.leastNonzeroMagnitude...largestTouchSize,
                                                     unit: " of millimetres")
        guard let v = r.table[InputKey.ignore.name] else { return }
        let example = "a list of regions [x, y, width, height] in screen pixels, such as [[0, 0, 800, 8], [0, 472, 800, 8]]"
        guard let regions = v.array else { throw r.error(InputKey.ignore, "expected \(example)") }
        guard regions.count <= mostRegions else {
            throw r.error(InputKey.ignore, "\(regions.count) regions; at most \(mostRegions)")
        }
        var out: [[Double]] = []
        for (n, region) in regions.enumerated() {
            let numbers = region.array.map { a in a.map { $0.double ?? $0.int.map(Double.init) } } ?? []
            guard numbers.count == 4, numbers.allSatisfy({ $0 != nil }) else {
                throw r.error(InputKey.ignore, "region \(n + 1) is not 4 numbers; expected \(example)")
            }
            let q = numbers.map { $0! }
            guard q.allSatisfy(\.isFinite), q[2] > 0, q[3] > 0,
                  [q[0], q[1], q[0] + q[2], q[1] + q[3]].allSatisfy({ abs($0) <= edge }) else {
                throw r.error(InputKey.ignore, "region \(n + 1), \(q), is not a rectangle on the screen: width and height greater than 0, "
                    + "x, y and the far edges x + width, y + height from -65536 to 65536 pixels")
            }
            out.append(q)
        }
        i.ignore = out
    }
}
