import KioskCore

/// A rounded square rasterised by hand, without cairo: a turned square's body and outline straight
/// into the frame, and a square's upright soft shadow into its cached image.
///
/// cairo 1.16 allocates in every `cairo_fill` of a curved path (about five times), and its ten
/// shadow fills are the dearest thing a transform frame can ask for; this draws the same shapes
/// from their signed distance, allocating nothing. A pixel's coverage is the share of its area
/// inside the edge, worked out exactly for a straight edge at the square's angle (the corners'
/// arcs use their radial direction), so a body differs from cairo's fill only by cairo's own
/// quantisation (15 sub-scanlines a pixel).
struct RoundedSquare {
    /// The center, in pixels of the surface drawn into.
    var cx: Double, cy: Double
    /// Half the side, and the corners' radius (at most `half`).
    var half: Double, radius: Double
    /// The rotation's cosine and sine (cairo's sense: clockwise on screen).
    var cos: Double, sin: Double

    init(cx: Double, cy: Double, side: Double, radius: Double, rotation: Double) {
        self.cx = cx
        self.cy = cy
        half = side / 2
        self.radius = max(0, min(radius, side / 2))
        cos = _cos(rotation)
        sin = _sin(rotation)
    }

    /// Row `y`'s pixels as a range of columns cut to `0..<width`: with `inside` false, every
    /// pixel whose centre lies within `margin` of the square (and a few more); with `inside` true,
    /// only pixels whose centre lies within the square shrunk by -`margin` (some may be left out).
    ///
    /// Outside, the square grown by `margin` and its corners cut by the arcs' tangents hold the
    /// shape; inside, the square grown by `margin` with its corners cut by the arcs' chords lies
    /// within it. Both are polygons of 8 half-planes; a row meets each in one interval.
    @inline(__always)
    func columns(row y: Int, margin: Double, inside: Bool, width: Int) -> (Int, Int) {
        let h = half + margin
        let r = max(0, radius + margin)
        guard h > 0 else { return (0, 0) }
        // Outside: the tangent at 45 degrees; inside: the chord between the arc's ends.
        let cut = inside ? 2 * h - r : 2 * h - r * (2 - 2.0.squareRoot())
        let Y = Double(y) + 0.5 - cy
        var lo = -Double.infinity, hi = Double.infinity
        // Local u = cos X + sin Y, v = -sin X + cos Y; a half-plane a u + b v <= g bounds X.
        Self.bound(cos, sin * Y, h, &lo, &hi)
        Self.bound(-cos, -sin * Y, h, &lo, &hi)
        Self.bound(-sin, cos * Y, h, &lo, &hi)
        Self.bound(sin, -cos * Y, h, &lo, &hi)
        Self.bound(cos - sin, (sin + cos) * Y, cut, &lo, &hi)
        Self.bound(cos + sin, (sin - cos) * Y, cut, &lo, &hi)
        Self.bound(-cos - sin, (cos - sin) * Y, cut, &lo, &hi)
        Self.bound(sin - cos, (-sin - cos) * Y, cut, &lo, &hi)
        guard lo <= hi else { return (0, 0) }
        // Pixel x's centre is x + 0.5 - cx in X.
        let first = Int(min(Double(width), max(0, (lo + cx - 0.5).rounded(.up))))
        let last = Int(min(Double(width), max(0, (hi + cx - 0.5).rounded(.down) + 1)))
        return (first, max(first, last))
    }

    /// Narrows `lo...hi` to the X where `a X + k <= g`.
    @inline(__always)
    private static func bound(_ a: Double, _ k: Double, _ g: Double, _ lo: inout Double, _ hi: inout Double) {
        if a > 1e-12 {
            hi = min(hi, (g - k) / a)
        } else if a < -1e-12 {
            lo = max(lo, (g - k) / a)
        } else if k > g {
            hi = -Double.infinity
        }
    }

    /// How far inside its arcs cairo's corners lie on average: it flattens an arc into chords
    /// up to 0.1 pixel inside it (its tolerance), so its corners come out that much lighter.
    static let arcFlattening = 0.05

    /// The signed distance of the point `X`, `Y` from the center (negative inside), with the
    /// edge's normal on screen as the larger and smaller of its absolute components.
    @inline(__always)
    func distance(_ X: Double, _ Y: Double) -> (d: Double, a: Double, b: Double) {
        let u = cos * X + sin * Y, v = -sin * X + cos * Y
        let inner = half - radius
        let qx = abs(u) - inner, qy = abs(v) - inner
        if qx > 0 && qy > 0 {
            let length = (qx * qx + qy * qy).squareRoot()
            let nu = (u < 0 ? -qx : qx) / length, nv = (v < 0 ? -qy : qy) / length
            let nx = abs(nu * cos - nv * sin), ny = abs(nu * sin + nv * cos)
            return (length - radius + Self.arcFlattening, max(nx, ny), min(nx, ny))
        }
        let c = abs(cos), s = abs(sin)
        return (max(qx, qy) - radius, max(c, s), min(c, s))
    }

    /// The share of a pixel's area on the inner side of a straight edge `t` pixels beyond its
    /// centre (t > 0: the centre is inside), for an edge whose normal has absolute components
    /// `a` >= `b` (a² + b² = 1): a pixel seen along the normal is a trapezoid.
    @inline(__always)
    static func coverage(_ t: Double, _ a: Double, _ b: Double) -> Double {
        let top = (a + b) / 2
        if t >= top { return 1 }
        if t <= -top { return 0 }
        let flat = (a - b) / 2
        if t > flat { let e = top - t; return 1 - e * e / (2 * a * b) }
        if t < -flat { let e = top + t; return e * e / (2 * a * b) }
        return 0.5 + t / a
    }
}

/// 8-bit arithmetic as pixman does it, so hand-drawn pixels blend as cairo's would.
enum Pixel8 {
    /// a * b / 255, rounded.
    @inline(__always)
    static func mul(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let t = a &* b &+ 0x80
        return (t &+ (t >> 8)) >> 8
    }

    /// A coverage in 0...1 as 0...255.
    @inline(__always)
    static func level(_ c: Double) -> UInt32 { UInt32(c * 255 + 0.5) }

    /// An alpha in 0...1 as cairo hands it to pixman: through 16 bits, then the top 8.
    static func alpha(_ a: Double) -> UInt32 { UInt32(min(1, max(0, a)) * 65535 + 0.5) >> 8 }

    /// `src` (opaque RGB, 0x00rrggbb) over `dst` with coverage `m`, each channel `src m + dst (1 - m)`.
    @inline(__always)
    static func over(_ src: UInt32, _ m: UInt32, _ dst: UInt32) -> UInt32 {
        let n = 255 - m
        let r = mul(src >> 16 & 0xff, m) + mul(dst >> 16 & 0xff, n)
        let g = mul(src >> 8 & 0xff, m) + mul(dst >> 8 & 0xff, n)
        let b = mul(src & 0xff, m) + mul(dst & 0xff, n)
        return 0xff00_0000 | r << 16 | g << 8 | b
    }

    /// The premultiplied ARGB `src` over `dst` (every byte, the top one as alpha), as pixman's
    /// OVER: `s + d (255 - sa) / 255` a channel, two channels a multiply. A valid premultiplied
    /// `src` never carries past 255.
    @inline(__always)
    static func over(premultiplied src: UInt32, _ dst: UInt32) -> UInt32 {
        let n = 255 - (src >> 24)
        if n == 0 { return src }
        if src == 0 { return dst }
        var rb = (dst & 0xff00ff) &* n &+ 0x800080
        rb = ((rb &+ (rb >> 8 & 0xff00ff)) >> 8) & 0xff00ff
        var ag = (dst >> 8 & 0xff00ff) &* n &+ 0x800080
        ag = (ag &+ (ag >> 8 & 0xff00ff)) & 0xff00ff00
        return src &+ (rb | ag)
    }

    /// Black at alpha `alpha` over `dst`: each channel `d (255 - alpha) / 255`.
    @inline(__always)
    static func darken(_ dst: UInt32, _ alpha: UInt32) -> UInt32 {
        let n = 255 - alpha
        return 0xff00_0000 | mul(dst >> 16 & 0xff, n) << 16 | mul(dst >> 8 & 0xff, n) << 8 | mul(dst & 0xff, n)
    }

    /// Premultiplied grey `value` at alpha `alpha` (value <= alpha) over `dst`.
    @inline(__always)
    static func overGrey(_ value: UInt32, _ alpha: UInt32, _ dst: UInt32) -> UInt32 {
        let n = 255 - alpha
        let r = value + mul(dst >> 16 & 0xff, n)
        let g = value + mul(dst >> 8 & 0xff, n)
        let b = value + mul(dst & 0xff, n)
        return 0xff00_0000 | r << 16 | g << 8 | b
    }
}

extension RoundedSquare {
    /// Fills the square with the opaque colour `rgb` (0x00rrggbb) and, when `outline` (an alpha,
    /// 0...255) is not 0, strokes its edge 4 pixels wide in white at that alpha, as cairo's
    /// `fill_preserve` then `stroke` would, into 32-bit pixels at `data` (`stride` bytes a row,
    /// `width` x `height`).
    func drawBody(rgb: UInt32, outline white: UInt32, into data: UnsafeMutableRawPointer, stride: Int, width: Int, height: Int) {
        // Beyond these distances a pixel is untouched (outside) or all body (inside).
        let band = white > 0 ? 2.0 : 0
        let reach = band + 0.75
        let extent = (half + reach) * (abs(cos) + abs(sin))
        let y0 = max(0, Int((cy - extent).rounded(.down))), y1 = min(height, Int((cy + extent).rounded(.up)) + 1)
        guard y0 < y1 else { return }
        let solid = 0xff00_0000 | rgb
        for y in y0..<y1 {
            let row = (data + y * stride).assumingMemoryBound(to: UInt32.self)
            let (o0, o1) = columns(row: y, margin: reach, inside: false, width: width)
            guard o0 < o1 else { continue }
            var (i0, i1) = columns(row: y, margin: -reach, inside: true, width: width)
            if i0 >= i1 { (i0, i1) = (o1, o1) }
            let Y = Double(y) + 0.5 - cy
            for x in o0..<i0 { row[x] = edge(x, Y, rgb, white, band, row[x]) }
            for x in i0..<i1 { row[x] = solid }
            for x in i1..<o1 { row[x] = edge(x, Y, rgb, white, band, row[x]) }
        }
    }

    @inline(__always)
    private func edge(_ x: Int, _ Y: Double, _ rgb: UInt32, _ white: UInt32, _ band: Double, _ dst: UInt32) -> UInt32 {
        let (d, a, b) = distance(Double(x) + 0.5 - cx, Y)
        var p = dst
        let body = Pixel8.level(Self.coverage(-d, a, b))
        if body > 0 { p = Pixel8.over(rgb, body, p) }
        if band > 0 {
            let stroke = Self.coverage(band - d, a, b) - Self.coverage(-band - d, a, b)
            let s = Pixel8.mul(white, Pixel8.level(stroke))
            if s > 0 { p = Pixel8.overGrey(s, s, p) }
        }
        return p
    }

    /// The soft shadow's alpha by distance from the square's edge, for layers grown by `spreads`
    /// each at `alpha` (0...255), laid over each other as cairo lays ten fills: one entry every
    /// 1/`profileSteps` pixel from `profileStart` on. Returns how many entries it wrote.
    static func shadowProfile(spreads first: Double, step: Double, layers: Int, alpha: UInt32,
                              into profile: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let last = first + step * Double(layers - 1)
        let count = min(profile.count, Int(((last + 0.5 - profileStart) * profileSteps).rounded(.up)) + 2)
        for i in 0..<count {
            let d = profileStart + Double(i) / profileSteps
            var a: UInt32 = 0
            for k in 0..<layers {
                let s = Pixel8.mul(alpha, Pixel8.level(min(1, max(0, first + step * Double(k) + 0.5 - d))))
                a = s + Pixel8.mul(a, 255 - s)
            }
            profile[i] = UInt8(a)
        }
        return count
    }

    static let profileStart = 0.0
    static let profileSteps = 32.0

    /// Lays the soft shadow (black, its alpha `profile` at each pixel's distance from this
    /// square's edge: its first entry inside, 0 beyond its end) over 32-bit pixels at `data`,
    /// leaving out the pixels `body` will cover whole (those its `drawBody` fills solid).
    func drawShadow(profile: UnsafeMutableBufferPointer<UInt8>, count: Int, under body: RoundedSquare, outline: Bool,
                    into data: UnsafeMutableRawPointer, stride: Int, width: Int, height: Int) {
        let outer = Self.profileStart + Double(count - 1) / Self.profileSteps + 0.01
        let extent = (half + outer) * (abs(cos) + abs(sin))
        let y0 = max(0, Int((cy - extent).rounded(.down))), y1 = min(height, Int((cy + extent).rounded(.up)) + 1)
        guard y0 < y1, count > 0 else { return }
        let inside = UInt32(profile[0])
        let bodyReach = (outline ? 2.0 : 0) + 0.75
        for y in y0..<y1 {
            let row = (data + y * stride).assumingMemoryBound(to: UInt32.self)
            let (o0, o1) = columns(row: y, margin: outer, inside: false, width: width)
            guard o0 < o1 else { continue }
            // The shadow's own inside (one alpha) and the body's (not drawn at all).
            var (s0, s1) = columns(row: y, margin: Self.profileStart, inside: true, width: width)
            if s0 >= s1 { (s0, s1) = (o1, o1) }
            var (b0, b1) = body.columns(row: y, margin: -bodyReach, inside: true, width: width)
            if b0 >= b1 { (b0, b1) = (o1, o1) }
            let Y = Double(y) + 0.5 - cy
            var x = o0
            while x < o1 {
                if x >= b0 && x < b1 { x = b1; continue }
                if x >= s0 && x < s1 {
                    if inside > 0 { row[x] = Pixel8.darken(row[x], inside) }
                } else {
                    let d = distance(Double(x) + 0.5 - cx, Y).d
                    let i = Int(max(0, (d - Self.profileStart) * Self.profileSteps + 0.5))
                    if i < count, profile[i] > 0 { row[x] = Pixel8.darken(row[x], UInt32(profile[i])) }
                }
                x += 1
            }
        }
    }
}
