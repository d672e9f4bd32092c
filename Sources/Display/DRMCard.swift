import CDRM
import Foundation
import KioskCore

/// An open DRM card (`/dev/dri/cardN`), closed when released.
final class DRMCard {
    let path: String
    let fd: Int32

    /// `card0` from `/dev/dri/card0`: how errors and the log name it.
    var name: String { (path as NSString).lastPathComponent }

    init(path: String) throws(DisplayError) {
        self.path = path
        let name = (path as NSString).lastPathComponent
        switch systemCall({ open(path, kiosk_O_RDWR | kiosk_O_CLOEXEC | kiosk_O_NONBLOCK) }) {
        case .success(let fd): self.fd = fd
        case .failure(let errno): throw DisplayError(card: name, .cannotOpen(path: path, errno))
        }
    }

    deinit { close(fd) }

    /// Every connector of the card with its modes; throws when the card has no KMS (render-only).
    func connectors() throws(DisplayError) -> [Connector] {
        guard let resources = drmModeGetResources(fd) else {
            throw DisplayError(card: name, .noModesetting)
        }
        defer { drmModeFreeResources(resources) }
        let r = resources.pointee
        var found: [Connector] = []
        for i in 0..<Int(r.count_connectors) {
            guard let c = drmModeGetConnector(fd, r.connectors[i]) else { continue }
            defer { drmModeFreeConnector(c) }
            found.append(Connector(c.pointee, crtcs: Array(UnsafeBufferPointer(start: r.crtcs, count: Int(r.count_crtcs))), fd: fd))
        }
        return found
    }

    /// The DRM card devices in /dev/dri, by number (card0, card1, ... card10).
    static func all(in directory: String = "/dev/dri") throws(DisplayError) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            throw DisplayError(.noCards(directory: directory, exists: false))
        }
        let cards = names.compactMap { n -> (Int, String)? in
            guard n.hasPrefix("card"), let k = Int(n.dropFirst(4)) else { return nil }
            return (k, directory + "/" + n)
        }
        guard !cards.isEmpty else { throw DisplayError(.noCards(directory: directory, exists: true)) }
        return cards.sorted { $0.0 < $1.0 }.map(\.1)
    }
}

extension DRMCard {
    /// Opens the card at `path` and reads its connectors; keeps it open in `opened` when it did open.
    static func survey(_ path: String, opened: inout (card: DRMCard, connectors: [Connector])?) -> CardSurvey {
        opened = nil
        let name = (path as NSString).lastPathComponent
        let card: DRMCard
        do {
            card = try DRMCard(path: path)
        } catch {
            // The survey names the card: keep only the cause.
            return CardSurvey(name: name, .unopenable(error.cause.description))
        }
        guard let connectors = try? card.connectors() else { return CardSurvey(name: name, .renderOnly) }
        opened = (card, connectors)
        return CardSurvey(name: name, .connectors(connectors.map {
            ConnectorSurvey(name: $0.name, isConnected: $0.isConnected, modes: $0.modes.map(\.mode), hasCRTC: $0.crtcID != nil)
        }))
    }
}

/// A connector as the kernel reported it, with the CRTC that can drive it.
struct Connector {
    let id: UInt32
    /// `Virtual-1`, `HDMI-A-1`, `DSI-1`: the kernel's own naming.
    let name: String
    let isConnected: Bool
    let modes: [(mode: DisplayMode, info: drmModeModeInfo)]
    /// The CRTC already driving it, else the first one an encoder of it can use.
    let crtcID: UInt32?
    /// That CRTC's index among the card's CRTCs: the "pipe" that vblank requests name.
    let crtcIndex: Int?

    init(_ c: drmModeConnector, crtcs: [UInt32], fd: Int32) {
        id = c.connector_id
        let type = drmModeGetConnectorTypeName(c.connector_type).map { String(cString: $0) } ?? "Unknown\(c.connector_type)"
        name = "\(type)-\(c.connector_type_id)"
        isConnected = c.connection == DRM_MODE_CONNECTED
        modes = (0..<Int(c.count_modes)).map { i in
            let m = c.modes[i]
            return (DisplayMode(width: Int(m.hdisplay), height: Int(m.vdisplay), refresh: Int(m.vrefresh),
                                isPreferred: m.type & kiosk_DRM_MODE_TYPE_PREFERRED != 0), m)
        }
        var crtc: UInt32?
        if c.encoder_id != 0, let e = drmModeGetEncoder(fd, c.encoder_id) {
            if e.pointee.crtc_id != 0 { crtc = e.pointee.crtc_id }
            drmModeFreeEncoder(e)
        }
        if crtc == nil {
            outer: for i in 0..<Int(c.count_encoders) {
                guard let e = drmModeGetEncoder(fd, c.encoders[i]) else { continue }
                defer { drmModeFreeEncoder(e) }
                for (k, id) in crtcs.enumerated() where k < 32 && e.pointee.possible_crtcs & (1 << UInt32(k)) != 0 {
                    crtc = id
                    break outer
                }
            }
        }
        crtcID = crtc
        crtcIndex = crtc.flatMap { crtcs.firstIndex(of: $0) }
    }
}
