// Reads probe's lines and checks TOMLGuard (compiled in beside this file by run.sh) against them:
// every text toml++ asserted on must be refused, and no text toml++ parsed may be.
import Foundation

var missed = 0, refusedValid = 0, asserts = 0, refused = 0, texts = 0
while let line = readLine() {
    let parts = line.split(separator: "\t")
    guard parts.count == 2, let status = Int(parts[0]) else { continue }
    var bytes: [UInt8] = []
    var hex = Substring(parts[1])
    while hex.count >= 2 { bytes.append(UInt8(hex.prefix(2), radix: 16)!); hex = hex.dropFirst(2) }
    // kiosk hands TOMLKit a Swift String, always valid UTF-8.
    guard let text = String(validating: bytes, as: UTF8.self) else { continue }
    texts += 1
    let problem = TOMLGuard.check(text)
    if status == 99 { asserts += 1 }
    if problem != nil { refused += 1 }
    if status == 99, problem == nil { missed += 1; print("missed:", text.debugDescription) }
    if status == 0, let problem { refusedValid += 1; print("valid, refused:", text.debugDescription, problem) }
    if ![0, 1, 99].contains(status) { print("toml++ ended on signal \(status - 128):", text.debugDescription) }
}
print("\(texts) texts, \(asserts) asserted, \(refused) refused, \(missed) missed, \(refusedValid) valid but refused")
exit(missed + refusedValid == 0 ? 0 : 1)
