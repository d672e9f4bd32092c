/// The range and state of one absolute axis (the kernel's `struct input_absinfo`).
public struct AxisInfo: Hashable, Sendable {
    public var minimum: Int32
    public var maximum: Int32
    /// Changes smaller than this are noise the kernel filters out.
    public var fuzz: Int32
    /// Values within this of the centre read as the centre (joysticks).
    public var flat: Int32
    /// Units per millimetre; 0 when the device does not say.
    public var resolution: Int32
    /// The axis's current value; evemu headers do not carry it, so traces read it as 0.
    public var value: Int32

    public init(
        minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0, value: Int32 = 0
    ) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
        self.value = value
    }

    /// `value` brought into `minimum...maximum`.
    public func clamped(_ value: Int32) -> Int32 { min(max(value, minimum), maximum) }

    /// True when `value` lies within `minimum...maximum`.
    public func contains(_ value: Int32) -> Bool { value >= minimum && value <= maximum }
}
