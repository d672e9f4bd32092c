import CDRM
import Glibc
import KioskCore

/// A panel driven through DRM/KMS: two dumb buffers, modesetting, page flips, restore on exit.
///
/// It owns no thread and never waits: `present()` queues a page flip, and the caller's poll loop
/// calls `handleEvents()` when `fileDescriptor` is readable. Draw the next frame only once the
/// flip is done (`isFlipPending` false): until then the other buffer is still on screen.
public final class DRMDisplay {
    /// `/dev/dri/card0`.
    public var cardPath: String { card.path }
    /// `card0`.
    public var cardName: String { card.name }
    /// `Virtual-1`, `HDMI-A-1`, `DSI-1`.
    public let connectorName: String
    public let mode: DisplayMode
    public let format: PixelFormat
    /// Poll it for readability, then call `handleEvents()`.
    public var fileDescriptor: Int32 { card.fd }
    /// Page flips completed so far.
    public private(set) var flipCount = 0
    /// True from `present()` until its flip event arrives.
    public var isFlipPending: Bool {
        if case .flipping = scanout { return true }
        return false
    }
    /// When the last flip completed (the kernel's vblank timestamp, CLOCK_MONOTONIC microseconds).
    public private(set) var lastFlipMicroseconds: Int64 = 0
    /// False while the panel is blanked (DPMS off).
    public private(set) var isPoweredOn = true
    /// False after DRM master was lost (another process took the card); `reacquire()` takes it back.
    public var isMasterHeld: Bool { isMaster }

    private let card: DRMCard
    private let connectorID: UInt32
    private let crtcID: UInt32
    private var modeInfo: drmModeModeInfo
    private let buffers: [DumbBuffer]
    private var damage: BufferDamage
    private var frameAreas: [Rect] = []
    private var neededAreas: [Rect] = []
    /// What the two buffers are doing, in one place: nothing shown yet, one shown, or one shown
    /// while a flip to the other is in flight.
    enum Scanout: Equatable {
        /// Before the first `present()` sets the mode, and after master or the mode was given up.
        case modeNotSet
        case showing(Int)
        /// `showing` is still on screen until the flip to `to`, queued at `queuedAt`, completes.
        case flipping(showing: Int, to: Int, queuedAt: Instant)
    }
    private(set) var scanout = Scanout.modeNotSet
    /// The buffer on screen; nil before the first `present()` sets the mode.
    var front: Int? {
        switch scanout {
        case .modeNotSet: nil
        case .showing(let i), .flipping(let i, _, _): i
        }
    }
    /// When the flip in flight was queued.
    var flipQueuedAt: Instant? {
        if case .flipping(_, _, let queued) = scanout { return queued }
        return nil
    }
    /// The flip `flipDone` saw during `handleEvents`, told to its caller once the events are read.
    private var completedFlip: Instant?
    /// What the CRTC showed before, put back by `restore()`.
    private var previous: drmModeCrtcPtr?
    private var isMaster = false
    /// The CRTC's index among the card's: the pipe `drmWaitVBlank` names.
    private let pipe: Int
    /// The panel's vblanks as its flips taught them (DRMDisplay+VBlank.swift); nil when the
    /// driver gives no vblank times (virtio-gpu), and then `vblankUnknownReason` says why.
    var grid: VBlankGrid?
    var vblankUnknownReason: String?
    /// The first ask for the last vblank failed, with an errno that may only mean the CRTC is off
    /// (EINVAL): asked again once the mode is set (DRMDisplay+VBlank.swift).
    var vblankAskAgain = false
    /// When the kernel was last asked for its last vblank.
    var lastVBlankQuery: Instant?

    /// Opens `card` (or the first card in /dev/dri with a connected connector), becomes DRM
    /// master and prepares `connector` (or the first connected one) in `mode` (or its preferred
    /// mode). Nothing changes on screen until the first `present()`.
    public init(card path: String? = nil, connector wanted: String? = nil, mode request: ModeRequest? = nil,
                format: PixelFormat = .xrgb8888) throws(DisplayError) {
        let search = DisplaySearch(cardIsNamed: path != nil, connector: wanted, mode: request)
        var opened: (card: DRMCard, connectors: [Connector])?
        let cards = if let path { [path] } else { try DRMCard.all() }
        let choice = try search.choose(cards: cards) { DRMCard.survey($0, opened: &opened) }.get()
        guard let (card, connectors) = opened else { throw DisplayError(.chosenCardNotKept) }
        let connector = connectors[choice.connector]
        self.card = card
        self.format = format
        connectorName = connector.name
        connectorID = connector.id
        let mode = connector.modes[choice.mode].mode
        self.mode = mode
        modeInfo = connector.modes[choice.mode].info
        guard let crtc = connector.crtcID else { throw DisplayError(card: card.name, .noCRTC(connector: connector.name)) }
        crtcID = crtc
        pipe = connector.crtcIndex ?? 0
        if case .failure(let errno) = systemCall(.negativeErrno, { drmSetMaster(card.fd) }) {
            throw DisplayError(card: card.name, .masterRefused(errno, again: false))
        }
        isMaster = true
        do throws(DisplayError) {
            buffers = try (0..<2).map { _ throws(DisplayError) in
                try DumbBuffer(card: card, width: mode.width, height: mode.height, format: format)
            }
        } catch {
            drmDropMaster(card.fd)
            throw error
        }
        damage = BufferDamage(bufferCount: 2, screen: Rect(x: 0, y: 0, width: Double(mode.width), height: Double(mode.height)))
        previous = drmModeGetCrtc(card.fd, crtc)
        learnVBlankTiming()
        CrashRestore.arm(fd: card.fd, crtcID: crtc, connectorID: connectorID, previous: previous?.pointee)
    }

    deinit {
        restore()
        if let previous { drmModeFreeCrtc(previous) }
    }

    /// The buffer the next frame is written into.
    private var back: Int { front.map { 1 - $0 } ?? 0 }

    /// Writes the damaged rectangles of `shadow` into the back buffer, with the damage of the
    /// frames it missed while it was on screen (buffer age). Never reads the dumb buffer.
    public func copy(from shadow: PixelBuffer, damage frame: [Rect], rotation: DisplayRotation = .upright) throws(DisplayError) {
        guard !isFlipPending else {
            throw DisplayError(card: card.name, .flipPending(drawing: true))
        }
        guard shadow.format == format else {
            throw DisplayError(card: card.name, .formatMismatch(shadow: shadow.format, display: format))
        }
        let back = back
        // In storage kept from frame to frame: a steady frame allocates nothing here.
        let shadowBounds = PixelRect(x: 0, y: 0, width: shadow.width, height: shadow.height)
        frameAreas.removeAll(keepingCapacity: true)
        for r in frame {
            guard let p = PixelRect(covering: r, within: shadowBounds) else { continue }
            let a = rotation.panelRect(p, shadowWidth: shadow.width, shadowHeight: shadow.height)
            frameAreas.append(Rect(x: Double(a.x), y: Double(a.y), width: Double(a.width), height: Double(a.height)))
        }
        damage.damage(forBuffer: back, frame: frameAreas, into: &neededAreas)
        let bounds = PixelRect(x: 0, y: 0, width: mode.width, height: mode.height)
        let target = buffers[back].target
        for r in neededAreas {
            if let area = PixelRect(covering: r, within: bounds) { FrameCopy.copy(from: shadow, to: target, area: area, rotation: rotation) }
        }
    }

    /// Shows the back buffer: the first time by setting the mode (on screen at once: returns now),
    /// then by a page flip whose completion `handleEvents(_:)` reports (returns nil).
    @discardableResult
    public func present() throws(DisplayError) -> Instant? {
        guard !isFlipPending else { throw DisplayError(card: card.name, .flipPending(drawing: false)) }
        let back = back
        guard front != nil else {
            var connector = connectorID
            try drmCall(card.name, "drmModeSetCrtc", on: "\(connectorName) \(mode)") {
                drmModeSetCrtc(card.fd, crtcID, buffers[back].framebuffer, 0, 0, &connector, 1, &modeInfo)
            }
            scanout = .showing(back)
            // The mode was set afresh: its vblanks start anew.
            grid?.forget()
            askForVBlanksAgain()
            CrashRestore.noteModeSet(fd: card.fd, true)
            return MonotonicClock.now
        }
        try drmCall(card.name, "drmModePageFlip", on: connectorName) {
            drmModePageFlip(card.fd, crtcID, buffers[back].framebuffer, kiosk_DRM_MODE_PAGE_FLIP_EVENT,
                            Unmanaged.passUnretained(self).toOpaque())
        }
        scanout = .flipping(showing: front ?? back, to: back, queuedAt: MonotonicClock.now)
        return nil
    }

    /// Reads the DRM events waiting on `fileDescriptor` (page flips done); returns at once when none are.
    public func handleEvents() throws(DisplayError) {
        try handleEvents { _ in }
    }

    /// Reads the DRM events waiting on `fileDescriptor`, and calls `flipped` with the kernel's
    /// time of the page flip that completed, if one did; returns at once when none are waiting.
    public func handleEvents(_ flipped: (Instant) -> Void) throws(DisplayError) {
        defer {
            if let done = completedFlip {
                completedFlip = nil
                flipped(done)
            }
        }
        var context = drmEventContext()
        context.version = kiosk_DRM_EVENT_CONTEXT_VERSION
        context.page_flip_handler = { _, _, seconds, microseconds, data in
            guard let data else { return }
            Unmanaged<DRMDisplay>.fromOpaque(data).takeUnretainedValue()
                .flipDone(at: Int64(seconds) * 1_000_000 + Int64(microseconds))
        }
        switch systemCall({ drmHandleEvent(card.fd, &context) }) {
        case .success, .failure(.wouldBlock): return
        case .failure(let errno): throw DisplayError(card: card.name, SystemCallError(call: "drmHandleEvent", errno: errno))
        }
    }

    private func flipDone(at microseconds: Int64) {
        guard case .flipping(_, let to, _) = scanout else { return }
        scanout = .showing(to)
        flipCount += 1
        lastFlipMicroseconds = microseconds
        completedFlip = Instant(microseconds: microseconds)
        grid?.flipCompleted(at: Instant(microseconds: microseconds))
    }

    /// The kernel's last vblank of this display's CRTC (`drmWaitVBlank` for the current count,
    /// which returns at once), or the errno it failed with: EOPNOTSUPP when the driver has no
    /// vblank interrupts (virtio-gpu), EINVAL when the CRTC is off.
    func lastVBlank() -> VBlankQuery {
        var t: Int64 = 0
        switch systemCall({ kiosk_last_vblank(card.fd, UInt32(pipe), &t) }) {
        case .success: return .at(Instant(microseconds: t))
        case .failure(let errno): return .failed(errno: errno.rawValue)
        }
    }

    /// Whether the kernel's vblank and flip times are CLOCK_MONOTONIC (`DRM_CAP_TIMESTAMP_MONOTONIC`),
    /// the loop's clock; nil when the kernel does not say.
    func vblankTimesAreMonotonic() -> Bool? {
        var value: UInt64 = 0
        guard drmGetCap(card.fd, kiosk_DRM_CAP_TIMESTAMP_MONOTONIC, &value) == 0 else { return nil }
        return value != 0
    }

    /// The mode's exact refresh period from its timings; nil when they are missing.
    var modePeriodMicroseconds: Double? {
        VBlankGrid.periodMicroseconds(pixelClockKHz: Int(modeInfo.clock), horizontalTotal: Int(modeInfo.htotal),
                                      verticalTotal: Int(modeInfo.vtotal),
                                      interlaced: modeInfo.flags & kiosk_DRM_MODE_FLAG_INTERLACE != 0,
                                      doubleScan: modeInfo.flags & kiosk_DRM_MODE_FLAG_DBLSCAN != 0)
    }

    /// Whether the connector still has a display attached (an HDMI cable can be pulled).
    public func isConnectorConnected() -> Bool {
        // The current state, without a probe: no EDID read on the loop's thread.
        guard let c = drmModeGetConnectorCurrent(card.fd, connectorID) else { return false }
        defer { drmModeFreeConnector(c) }
        return c.pointee.connection == DRM_MODE_CONNECTED
    }

    /// The connector read afresh after a hotplug event: the kernel probes it (an HDMI display's
    /// EDID is read), so this is for the rare event, not for every frame.
    public func readConnection() -> DisplayConnection {
        guard let c = drmModeGetConnector(card.fd, connectorID) else {
            return DisplayConnection(connector: connectorName, isConnected: false, modes: [])
        }
        defer { drmModeFreeConnector(c) }
        let modes = (0..<Int(c.pointee.count_modes)).map { i in
            let m = c.pointee.modes[i]
            return DisplayMode(width: Int(m.hdisplay), height: Int(m.vdisplay), refresh: Int(m.vrefresh),
                               isPreferred: m.type & kiosk_DRM_MODE_TYPE_PREFERRED != 0)
        }
        return DisplayConnection(connector: connectorName, isConnected: c.pointee.connection == DRM_MODE_CONNECTED, modes: modes)
    }

    /// Blanks the panel (DPMS off) or wakes it, through the connector's `DPMS` property.
    public func setPower(on: Bool) throws(DisplayError) {
        guard on != isPoweredOn else { return }
        guard let property = connectorProperty(named: "DPMS") else {
            throw DisplayError(card: card.name, .noDPMS(connector: connectorName))
        }
        let value = UInt64(on ? DRM_MODE_DPMS_ON : DRM_MODE_DPMS_OFF)
        try drmCall(card.name, "set DPMS", on: "\(on ? "on" : "off") on \(connectorName)") {
            drmModeConnectorSetProperty(card.fd, connectorID, property, value)
        }
        isPoweredOn = on
        // A blanked panel has no vblanks; woken, it starts them anew.
        grid?.forget()
    }

    private func connectorProperty(named wanted: String) -> UInt32? {
        guard let props = drmModeObjectGetProperties(card.fd, connectorID, DRM_MODE_OBJECT_CONNECTOR) else { return nil }
        defer { drmModeFreeObjectProperties(props) }
        for i in 0..<Int(props.pointee.count_props) {
            guard let p = drmModeGetProperty(card.fd, props.pointee.props[i]) else { continue }
            defer { drmModeFreeProperty(p) }
            let name = withUnsafeBytes(of: p.pointee.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == wanted { return p.pointee.prop_id }
        }
        return nil
    }

    /// After a lost master (a failed flip or modeset with EACCES/EPERM, or a VT switch): takes it
    /// back when the card is free, and forgets what the buffers showed, so the next `present()`
    /// sets the mode again from a whole frame. Throws while another process still holds it.
    public func reacquire() throws(DisplayError) {
        if !isMaster {
            if case .failure(let errno) = systemCall(.negativeErrno, { drmSetMaster(card.fd) }) {
                throw DisplayError(card: card.name, .masterRefused(errno, again: true))
            }
            isMaster = true
        }
        scanout = .modeNotSet
        grid?.forget()
        damage.invalidate()
        if !isPoweredOn { try? setPower(on: true) }
    }

    /// Records that master was lost: a present failed with a permission error.
    public func noteMasterLost() {
        isMaster = false
        // The flip's event will not come: what was on screen stays the front.
        if case .flipping(let showing, _, _) = scanout { scanout = .showing(showing) }
        grid?.forget()
    }

    /// Puts back what the CRTC showed before and gives up DRM master; safe to call twice.
    ///
    /// Returns what could not be done (nil when the screen is back as it was and master is given
    /// up), so a caller says "restored" only when it is true.
    @discardableResult
    public func restore() -> DisplayError? {
        // Until the CRTC is back, a crash would still put it back.
        defer { CrashRestore.disarm(fd: card.fd) }
        guard isMaster else {
            guard front != nil else { return nil }
            scanout = .modeNotSet
            return DisplayError(card: card.name, .masterLost)
        }
        // A flip still in flight completes within a frame; let it, so its event is not left behind.
        var waited = 0
        while isFlipPending && waited < 10 {
            var p = pollfd(fd: card.fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 10) > 0 { try? handleEvents() }
            waited += 1
        }
        var problems: [DisplayError] = []
        if front != nil {
            do throws(DisplayError) {
                if let previous, previous.pointee.mode_valid != 0, previous.pointee.buffer_id != 0 {
                    var connector = connectorID
                    var m = previous.pointee.mode
                    try drmCall(nil, "drmModeSetCrtc", on: "\(connectorName) back to framebuffer \(previous.pointee.buffer_id)") {
                        drmModeSetCrtc(card.fd, previous.pointee.crtc_id, previous.pointee.buffer_id,
                                       previous.pointee.x, previous.pointee.y, &connector, 1, &m)
                    }
                } else {
                    try drmCall(nil, "drmModeSetCrtc", on: "\(connectorName) off") { drmModeSetCrtc(card.fd, crtcID, 0, 0, 0, nil, 0, nil) }
                }
            } catch {
                problems.append(error)
            }
            scanout = .modeNotSet
            CrashRestore.noteModeSet(fd: card.fd, false)
            damage.invalidate()
        }
        do throws(DisplayError) {
            try drmCall(nil, "drmDropMaster") { drmDropMaster(card.fd) }
        } catch {
            problems.append(error)
        }
        isMaster = false
        return problems.isEmpty ? nil : DisplayError(card: card.name, .notRestored(problems))
    }
}
