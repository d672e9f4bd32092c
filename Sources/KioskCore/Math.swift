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

/// `value` with exactly `digits` decimals, without Foundation, the same on every platform. Total:
/// `nan`, `inf` and `-inf` as Swift spells them, and a value too large for its decimals to fit 53
/// bits (beyond 2^53 / 10^digits, where a Double has no such decimals left) in Swift's shortest
/// exact spelling (`1e+19`).
public func fixedDecimal(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (abs(value) * scale).rounded()
    guard rounded < 9_007_199_254_740_992 else { return String(value) }  // also nan and inf
    let whole = Int(rounded / scale)
    let frac = Int(rounded - Double(whole) * scale)
    let sign = value < 0 && rounded != 0 ? "-" : ""
    guard digits > 0 else { return "\(sign)\(whole)" }
    var fracText = String(frac)
    while fracText.count < digits { fracText = "0" + fracText }
    return "\(sign)\(whole).\(fracText)"
}
