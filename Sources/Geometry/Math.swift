#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The C math functions, behind names that do not clash with members called `sin`, `cos` or `atan2`.
@inlinable public func _sin(_ x: Double) -> Double { sin(x) }
@inlinable public func _cos(_ x: Double) -> Double { cos(x) }
@inlinable public func _atan2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }

/// `angle` brought into (-pi, pi].
@inlinable public func normalizedAngle(_ angle: Double) -> Double {
    var a = angle.truncatingRemainder(dividingBy: 2 * Double.pi)
    if a > Double.pi { a -= 2 * Double.pi }
    if a <= -Double.pi { a += 2 * Double.pi }
    return a
}

/// `value` with exactly `digits` decimals, without Foundation, the same on every platform.
public func fixedDecimal(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (abs(value) * scale).rounded()
    let whole = Int(rounded / scale)
    let frac = Int(rounded - Double(whole) * scale)
    let sign = value < 0 && rounded != 0 ? "-" : ""
    guard digits > 0 else { return "\(sign)\(whole)" }
    var fracText = String(frac)
    while fracText.count < digits { fracText = "0" + fracText }
    return "\(sign)\(whole).\(fracText)"
}
