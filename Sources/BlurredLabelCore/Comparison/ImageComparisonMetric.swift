import BlurLabelPixels
import BlurLabelSystem

/// How far apart two colours are, as a person sees them: 0 for the same colour, 1 for black
/// against white.
public enum ComparisonMetric: String, Sendable, CaseIterable {
    /// pixelmatch 7.2's metric: the YIQ distance of Kotsarenko and Ramos,
    /// `√((0.5053·ΔY² + 0.299·ΔI² + 0.1957·ΔQ²) / 35215)`, on gamma-encoded bytes.
    case yiq
    /// pixelmatch's current metric (after 7.2.0): HyAB in OKLab, `|ΔLr| + √(Δa² + Δb²)`, with
    /// Ottosson's toe-corrected lightness Lr. Tracks hue and chroma changes YIQ misses (a blue
    /// channel dropping from 157 to 0) and does not over-weight near-black noise.
    case oklab
}

/// The arithmetic of one metric on packed premultiplied pixels (`r | g<<8 | b<<16 | a<<24`).
///
/// Semi-transparent pixels are blended, as pixelmatch 7 does, over a checkerboard of dark and
/// light channels that depends on the pixel's position (or over one `backdrop` colour), so a
/// pixel whose transparency changes is a difference: opaque white and fully transparent differ.
/// The byte arithmetic mirrors pixelmatch's so opaque and fully transparent pixels give exactly
/// its numbers; pixelmatch reads straight alpha, so a semi-transparent pixel can differ from it in
/// the last bits of rounding (premultiplied bytes cannot say more).
struct PixelMetric: Sendable {
    let metric: ComparisonMetric
    /// nil: pixelmatch's checkerboard; otherwise the backdrop's red, green and blue.
    let backdrop: (Double, Double, Double)?
    let threshold: Double
    /// YIQ: the squared distance limit, as pixelmatch computes it.
    let yiqLimit: Double
    let tables: OKLabTables

    init(metric: ComparisonMetric, threshold: Double, checkerboard: Bool, backdrop: Color) {
        self.metric = metric
        self.threshold = threshold
        self.backdrop = checkerboard ? nil : (Double(backdrop.red), Double(backdrop.green), Double(backdrop.blue))
        yiqLimit = 35215 * threshold * threshold
        tables = OKLabTables.shared
    }

    /// The blend background for the pixel at `index` (pixelmatch keys it on the byte offset).
    @inline(__always)
    func background(_ index: Int) -> (Double, Double, Double) {
        if let backdrop { return backdrop }
        let k = index * 4
        return (
            Double(48 + 159 * (k % 2)),
            Double(48 + 159 * (Int(Double(k) / 1.618033988749895) % 2)),
            Double(48 + 159 * (Int(Double(k) / 2.618033988749895) % 2))
        )
    }

    /// Whether the pixels at `index` (which differ in bytes) are over the threshold, and their
    /// distance 0...1 for the report.
    @inline(__always)
    func compare(_ p: UInt32, _ q: UInt32, index: Int) -> (exceeds: Bool, distance: Double) {
        switch metric {
        case .yiq:
            let delta = yiqSquared(p, q, index: index)
            return (abs(delta) > yiqLimit, (delta / 35215).squareRoot())
        case .oklab:
            return oklab(p, q, index: index)
        }
    }

    // MARK: YIQ (pixelmatch 7.2)

    @inline(__always)
    func yiqSquared(_ p: UInt32, _ q: UInt32, index: Int) -> Double {
        let (r1, g1, b1, a1) = channels(p)
        let (r2, g2, b2, a2) = channels(q)
        var dr = r1 - r2
        var dg = g1 - g2
        var db = b1 - b2
        if a1 < 255 || a2 < 255 {
            // pixelmatch: (r1·a1 − r2·a2 − background·Δa) / 255; r·a is the premultiplied byte · 255.
            let (rb, gb, bb) = background(index)
            let da = a1 - a2
            dr = (r1 * 255 - r2 * 255 - rb * da) / 255
            dg = (g1 * 255 - g2 * 255 - gb * da) / 255
            db = (b1 * 255 - b2 * 255 - bb * da) / 255
        }
        let y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
        let i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
        let q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
        return 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    }

    // MARK: OKLab + HyAB (pixelmatch after 7.2.0)

    @inline(__always)
    func oklab(_ p: UInt32, _ q: UInt32, index: Int) -> (exceeds: Bool, distance: Double) {
        let (r1, g1, b1, a1) = channels(p)
        let (r2, g2, b2, a2) = channels(q)
        let one: (Double, Double, Double, Double)
        let two: (Double, Double, Double, Double)
        if a1 == 255 && a2 == 255 {
            one = tables.lms(linear: tables.linear[Int(r1)], tables.linear[Int(g1)], tables.linear[Int(b1)])
            two = tables.lms(linear: tables.linear[Int(r2)], tables.linear[Int(g2)], tables.linear[Int(b2)])
        } else {
            // Blend over the background: (r·a + background·(255 − a)) / 255, with fractional results.
            let (rb, gb, bb) = background(index)
            func blended(_ r: Double, _ g: Double, _ b: Double, _ a: Double) -> (Double, Double, Double, Double) {
                tables.lms(
                    linear: tables.linearInterpolated((r * 255 + rb * (255 - a)) / 255),
                    tables.linearInterpolated((g * 255 + gb * (255 - a)) / 255),
                    tables.linearInterpolated((b * 255 + bb * (255 - a)) / 255)
                )
            }
            one = blended(r1, g1, b1, a1)
            two = blended(r2, g2, b2, a2)
        }
        let dLr = one.3 - two.3
        let dl = one.0 - two.0
        let dm = one.1 - two.1
        let ds = one.2 - two.2
        let da = 1.9779984951 * dl - 2.4285922050 * dm + 0.4505937099 * ds
        let db = 0.0259040371 * dl + 0.7827717662 * dm - 0.8086757660 * ds
        let chroma = da * da + db * db
        // pixelmatch's test without the square root: within iff |ΔLr| < t and Δa² + Δb² ≤ (t − |ΔLr|)².
        let rest = threshold - abs(dLr)
        let within = rest > 0 && chroma <= rest * rest
        return (!within, abs(dLr) + chroma.squareRoot())
    }

    // MARK: brightness for the anti-aliasing detector

    /// The brightness step from the centre pixel `c` (at `centre`) to a neighbour `n`: Rec. 601
    /// luma on gamma bytes, as both pixelmatch versions use. 7.2 (`.yiq`) blends over the
    /// centre's checkerboard cell; the current version (`.oklab`) over white, taking the alpha
    /// step for the direction when the luma steps cancel.
    @inline(__always)
    func brightnessDelta(_ c: UInt32, _ n: UInt32, centre: Int) -> Double {
        if c == n { return 0 }
        let (r1, g1, b1, a1) = channels(c)
        let (r2, g2, b2, a2) = channels(n)
        guard a1 < 255 || a2 < 255 else {
            return (r1 - r2) * 0.29889531 + (g1 - g2) * 0.58662247 + (b1 - b2) * 0.11448223
        }
        let da = a1 - a2
        switch metric {
        case .yiq:
            let (rb, gb, bb) = background(centre)
            let dr = (r1 * 255 - r2 * 255 - rb * da) / 255
            let dg = (g1 * 255 - g2 * 255 - gb * da) / 255
            let db = (b1 * 255 - b2 * 255 - bb * da) / 255
            return dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
        case .oklab:
            let dr = (r1 * 255 - r2 * 255 - 255 * da) / 255
            let dg = (g1 * 255 - g2 * 255 - 255 * da) / 255
            let db = (b1 * 255 - b2 * 255 - 255 * da) / 255
            let d = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
            return d == 0 && da != 0 ? da / 2 : d
        }
    }

    @inline(__always)
    func channels(_ w: UInt32) -> (Double, Double, Double, Double) {
        (Double(w & 0xFF), Double((w >> 8) & 0xFF), Double((w >> 16) & 0xFF), Double(w >> 24))
    }
}

/// The lookup tables of pixelmatch's OKLab code (sRGB → linear, cube root), built the same way
/// so the numbers are the same: linear interpolation between table entries.
final class OKLabTables: Sendable {
    static let shared = OKLabTables()

    /// sRGB byte → linear light, 256 entries plus a copy of the last for interpolation.
    let linear: [Double]
    /// ∛(i / 4096) for i in 0...4097.
    let cubeRoot: [Double]

    static let toeK1 = 0.206, toeK2 = 0.03
    static let toeK3 = (1 + toeK1) / (1 + toeK2)

    private init() {
        var linear = (0..<256).map { i -> Double in
            let c = Double(i) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        linear.append(linear[255])
        self.linear = linear
        cubeRoot = (0...4097).map { cbrt(Double($0) / 4096) }
    }

    @inline(__always)
    func linearInterpolated(_ x: Double) -> Double {
        let i = Int(x)
        return linear[i] + (linear[i + 1] - linear[i]) * (x - Double(i))
    }

    @inline(__always)
    func cubeRootInterpolated(_ x: Double) -> Double {
        let t = x * 4096
        let i = Int(t)
        return cubeRoot[i] + (cubeRoot[i + 1] - cubeRoot[i]) * (t - Double(i))
    }

    /// Cube-rooted LMS and the toe-corrected lightness Lr of a linear-light colour.
    @inline(__always)
    func lms(linear r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double, Double) {
        let l = cubeRootInterpolated(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
        let m = cubeRootInterpolated(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
        let s = cubeRootInterpolated(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
        return (l, m, s, Self.toe(0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s))
    }

    @inline(__always)
    static func toe(_ lightness: Double) -> Double {
        let x = toeK3 * lightness - toeK1
        return 0.5 * (x + (x * x + 4 * toeK2 * toeK3 * lightness).squareRoot())
    }
}
