import CMosquitto
import KioskCore
#if canImport(Glibc)
import Glibc
#endif

/// libmosquitto's `mosquitto_lib_init`, once per process.
private let libraryReady: Void = { _ = mosquitto_lib_init() }()

/// A libmosquitto result code (`MOSQ_ERR_*`) with libmosquitto's own words for it.
public struct MosquittoError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: Int32
    /// errno, for `MOSQ_ERR_ERRNO`.
    public var systemError: Int32
    /// The call that failed.
    public var call: String

    public var description: String {
        if code == Int32(MOSQ_ERR_ERRNO.rawValue) { return "\(call): \(Errno(rawValue: systemError))" }
        return "\(call): \(String(cString: mosquitto_strerror(code)))"
    }
}

/// One libmosquitto client, driven from outside: no thread (never `mosquitto_loop_start`), no
/// blocking call. The owner polls `socket` (for writing only while `wantsWrite`) and calls
/// `read()`, `write()` and `misc()`; libmosquitto's callbacks arrive during those calls.
final class MosquittoClient {
    private let handle: OpaquePointer
    /// CONNACK: 0 is accepted; others are the broker's refusal (`mosquitto_connack_string`).
    var onConnect: (Int32) -> Void = { _ in }
    /// The connection ended; 0 when we asked for it.
    var onDisconnect: (Int32) -> Void = { _ in }
    var onMessage: (String, UnsafeRawBufferPointer) -> Void = { _, _ in }

    init(clientID: String) throws(MosquittoError) {
        _ = libraryReady
        guard let h = mosquitto_new(clientID, true, nil) else {
            throw MosquittoError(code: Int32(MOSQ_ERR_ERRNO.rawValue), systemError: errno, call: "mosquitto_new")
        }
        handle = h
        mosquitto_user_data_set(h, Unmanaged.passUnretained(self).toOpaque())
        mosquitto_connect_callback_set(h) { _, user, rc in
            guard let user else { return }
            Unmanaged<MosquittoClient>.fromOpaque(user).takeUnretainedValue().onConnect(rc)
        }
        mosquitto_disconnect_callback_set(h) { _, user, rc in
            guard let user else { return }
            Unmanaged<MosquittoClient>.fromOpaque(user).takeUnretainedValue().onDisconnect(rc)
        }
        mosquitto_message_callback_set(h) { _, user, message in
            guard let user, let message, let topic = message.pointee.topic else { return }
            let payload = UnsafeRawBufferPointer(start: message.pointee.payload, count: Int(max(message.pointee.payloadlen, 0)))
            Unmanaged<MosquittoClient>.fromOpaque(user).takeUnretainedValue().onMessage(String(cString: topic), payload)
        }
    }

    deinit { mosquitto_destroy(handle) }

    private func check(_ rc: Int32, _ call: String) throws(MosquittoError) {
        guard rc == Int32(MOSQ_ERR_SUCCESS.rawValue) else { throw MosquittoError(code: rc, systemError: errno, call: call) }
    }

    func setWill(topic: String, payload: String, retain: Bool) throws(MosquittoError) {
        let bytes = Array(payload.utf8)
        try check(mosquitto_will_set(handle, topic, Int32(bytes.count), bytes, 1, retain), "mosquitto_will_set")
    }

    func setCredentials(username: String?, password: String?) throws(MosquittoError) {
        try check(mosquitto_username_pw_set(handle, username, password), "mosquitto_username_pw_set")
    }

    /// TLS with the broker's certificate checked against `caFile` and the host name.
    func setTLS(caFile: String) throws(MosquittoError) {
        try check(mosquitto_tls_set(handle, caFile, nil, nil, nil, nil), "mosquitto_tls_set")
    }

    /// Starts a non-blocking connect (`mosquitto_connect_async`). `host` should be an address:
    /// libmosquitto looks a name up with the blocking `getaddrinfo`.
    func connect(host: String, port: Int, keepalive: Int) throws(MosquittoError) {
        let rc = mosquitto_connect_async(handle, host, Int32(port), Int32(keepalive))
        // A connect that is still under way is no error.
        if rc == Int32(MOSQ_ERR_CONN_PENDING.rawValue) { return }
        try check(rc, "mosquitto_connect_async \(host):\(port)")
    }

    /// The socket to poll, or -1 when there is none.
    var socket: Int32 { mosquitto_socket(handle) }
    var wantsWrite: Bool { mosquitto_want_write(handle) }

    func read() throws(MosquittoError) { try check(mosquitto_loop_read(handle, 16), "mosquitto_loop_read") }
    func write() throws(MosquittoError) { try check(mosquitto_loop_write(handle, 16), "mosquitto_loop_write") }
    /// Keepalive pings and the broker's silence.
    func misc() throws(MosquittoError) { try check(mosquitto_loop_misc(handle), "mosquitto_loop_misc") }

    func subscribe(_ filter: String, qos: Int32) throws(MosquittoError) {
        try check(mosquitto_subscribe(handle, nil, filter, qos), "mosquitto_subscribe \(filter)")
    }

    func publish(_ topic: String, _ payload: String, qos: Int32 = 0, retain: Bool) throws(MosquittoError) {
        try publish(topic, bytes: Array(payload.utf8), qos: qos, retain: retain)
    }

    /// Publishes `bytes` as they are (a PNG); libmosquitto copies them.
    func publish(_ topic: String, bytes: [UInt8], qos: Int32 = 0, retain: Bool) throws(MosquittoError) {
        try check(mosquitto_publish(handle, nil, topic, Int32(bytes.count), bytes, qos, retain), "mosquitto_publish \(topic)")
    }

    /// A clean DISCONNECT (the broker then keeps the will to itself); the socket closes.
    func disconnect() { _ = mosquitto_disconnect(handle) }

    /// The broker's reason for a CONNACK code, in libmosquitto's words.
    static func connackReason(_ code: Int32) -> String { String(cString: mosquitto_connack_string(code)) }
}
