/// Maps one device axis onto one screen dimension and back.
///
/// A value v in min...max lands at (v - min) / (max - min + 1) * length, so each device unit owns an
/// equal share of the screen and a 0...799 axis on an 800 pixel screen maps to 0...799 exactly.
public struct AxisMapping: Hashable, Sendable {
    public let minimum: Int32
    public let maximum: Int32
    /// The screen dimension in pixels.
    public let length: Double
    private let pixelsPerUnit: Double

    /// Needs `maximum >= minimum`.
    public init(_ axis: AxisInfo, length: Double) {
        precondition(axis.maximum >= axis.minimum, "axis range \(axis.minimum)...\(axis.maximum) is empty")
        minimum = axis.minimum
        maximum = axis.maximum
        self.length = length
        // In Double: the range of a 32-bit axis can overflow Int32.
        pixelsPerUnit = length / (Double(axis.maximum) - Double(axis.minimum) + 1)
    }

    /// True when the device value lies within the axis range.
    public func contains(_ value: Int32) -> Bool { value >= minimum && value <= maximum }

    /// The device value brought into the axis range.
    public func clamped(_ value: Int32) -> Int32 { min(max(value, minimum), maximum) }

    /// The screen coordinate of a device value, which is clamped into the range first.
    public func screen(_ value: Int32) -> Double {
        (Double(clamped(value)) - Double(minimum)) * pixelsPerUnit
    }

    /// The device value nearest to a screen coordinate, within the axis range.
    public func device(_ coordinate: Double) -> Int32 {
        let value = (coordinate / pixelsPerUnit + Double(minimum)).rounded()
        return Int32(min(max(value, Double(minimum)), Double(maximum)))
    }
}
