import BlurLabelSystem
import CBlurKernels

/// How a Gaussian of a given sigma is computed: planning kept apart from the passes that run it.
///
/// Small sigmas use a direct, symmetric FIR kernel of sampled Gaussian weights, run in 16-bit
/// fixed point (twice the lanes of float, exact integer arithmetic); from
/// `recursiveFrom` on, Deriche's 4th-order recursive filter, whose cost does not grow with sigma
/// and whose step response stays within 0.03 of an 8-bit level of the sampled Gaussian's. The
/// switch point is about where the two cost the same (FIR cost grows with σ).
enum BlurPlan: Equatable {
    case copy
    case fir(FIRKernel)
    case recursive(DericheCoefficients)

    /// The sigma at which the recursive filter takes over from the FIR kernel: the fixed-point
    /// FIR (cost ∝ σ, cache-resident) was measured faster than the float recursive filter (flat
    /// cost, a full float plane through memory) up to between σ 8 and 11 on 2048² RGBA and
    /// masks, one core, AVX2 (both kernels timed side by side in C; `Benchmarks/run-blur
    /// --sigmas 8,8.99,9,11` shows both sides of the switch). Its radius (⌈3.5σ⌉) must stay
    /// within `BL_FIXED_MAX_RADIUS`.
    static let recursiveFrom = 9.0

    init(sigma: Double) {
        if sigma == 0 {
            self = .copy
        } else if sigma < Self.recursiveFrom {
            self = .fir(FIRKernel(sigma: sigma))
        } else {
            self = .recursive(DericheCoefficients(sigma: sigma))
        }
    }
}

/// The right half of a normalized, sampled Gaussian: `weights[0]` is the centre tap.
struct FIRKernel: Equatable {
    let weights: [Double]
    /// Taps on each side of the centre (the C kernels' `radius`): a count, not a σ.
    var halfWidth: Int { weights.count - 1 }

    /// Support of ±3.5σ (at least one tap each side), renormalized: the tails beyond hold 4.7e-4
    /// of the mass, which keeps the result within 0.6 of a level of the float64 Gaussian before
    /// rounding (±3σ was measured at 0.84, too close to the one-level bound).
    init(sigma: Double) {
        let halfWidth = max(1, Int((3.5 * sigma).rounded(.up)))
        // The centre tap is 1 outright: for a sigma so small that its square underflows to 0,
        // 0 / 0 would make it NaN (the side taps' -k² / 0 is -infinity, whose exp is 0).
        let raw = (0...halfWidth).map { $0 == 0 ? 1 : exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = raw[0] + 2 * raw.dropFirst().reduce(0, +)
        weights = raw.map { $0 / total }
    }

    /// Column tiles of this many samples keep the ring of filtered 16-bit rows (2r+4: four output
    /// rows a step; 2r+2 for radius 1–4, two a step) within `ringBytes` (a multiple of 256
    /// samples, so of 4 channels, and of every variant's block).
    var tileSamples: Int {
        let ringRows = 2 * halfWidth + (halfWidth <= 4 ? 2 : 4)
        return max(256, Self.ringBytes / (2 * ringRows) / 256 * 256)
    }

    /// The cache a ring may fill: under a core's own L2 on current x86-64 (256 KB to 2 MB),
    /// so cores do not compete for the shared L3 when many run.
    static let ringBytes = 192 * 1024

    /// The kernel in the fixed-point form the passes run (see `bl_fixed_kernel`): horizontal
    /// weights in Q16, vertical in Q17, each set summing to exactly one (the centre takes the
    /// rounding), and biases that undo the truncation of `halfWidth + 1` products on average and
    /// the offset every sample carries (`BL_FIXED_OFFSET`).
    var fixedPoint: bl_fixed_kernel {
        precondition(
            halfWidth <= Int(BL_FIXED_MAX_RADIUS),
            "FIR half width \(halfWidth) beyond the fixed-point kernel's"
        )
        var kernel = bl_fixed_kernel()
        kernel.radius = Int32(halfWidth)
        kernel.tile_samples = Int32(tileSamples)
        let side = weights.dropFirst()
        let horizontal = side.map { Int(($0 * 65536).rounded()) }
        let vertical = side.map { Int(($0 * 131_072).rounded()) }
        let horizontalCentre = 65536 - 2 * horizontal.reduce(0, +)
        let verticalCentre = 131_072 - 2 * vertical.reduce(0, +)
        precondition(vertical.allSatisfy { $0 < 65536 } && horizontalCentre > 0 && verticalCentre > 0)
        // Each of the halfWidth + 1 truncated products per pass loses half a unit on average; the
        // vertical bias also rounds to nearest (+128) and takes off the offset (2 × 64 in Q8).
        let truncation = (halfWidth + 1) / 2
        kernel.horizontal_bias = UInt16(truncation)
        kernel.vertical_bias = UInt16(128 - 2 * Int(BL_FIXED_OFFSET) + truncation)
        kernel.vertical_centre_whole = verticalCentre >= 65536 ? 1 : 0
        withUnsafeMutableBytes(of: &kernel.horizontal) { bytes in
            let h = bytes.bindMemory(to: UInt16.self)
            h[0] = UInt16(min(65535, horizontalCentre))
            for (k, w) in horizontal.enumerated() { h[k + 1] = UInt16(w) }
        }
        withUnsafeMutableBytes(of: &kernel.vertical) { bytes in
            let v = bytes.bindMemory(to: UInt16.self)
            v[0] = UInt16(min(65535, verticalCentre >= 65536 ? verticalCentre - 65536 : verticalCentre))
            for (k, w) in vertical.enumerated() { v[k + 1] = UInt16(w) }
        }
        return kernel
    }
}

/// Deriche's 4th-order recursive Gaussian in parallel form: two second-order sections, each run
/// causally and anticausally. Coefficients from Deriche (1993), refined values as published in
/// the Mines Java Toolkit; normalized so a constant signal is kept exactly.
struct DericheCoefficients: Equatable {
    /// Per section: causal feed-forward (n0, n1), anticausal feed-forward (m1, m2), feedback (p1, p2).
    struct Section: Equatable {
        var n0, n1, m1, m2, p1, p2: Float
        /// Steady-state output of the causal and anticausal halves for a constant input of 1.
        var causalGain, anticausalGain: Float
    }
    let sections: [Section]

    init(sigma: Double) {
        // a·cos(ω n/σ) + b·sin(ω n/σ), damped by exp(-λ n/σ): the two terms of the impulse response.
        let terms: [(a: Double, b: Double, lambda: Double, omega: Double)] = [
            (1.6797292232361107, 3.7348298269103580, 1.7831906544515104, 0.6318113174569493),
            (-0.6802783501806897, -0.2598300478959625, 1.7228297663338028, 1.9969276832487770),
        ]
        var raw: [(n0: Double, n1: Double, m1: Double, m2: Double, p1: Double, p2: Double)] = []
        var dc = 0.0
        for t in terms {
            let r = exp(-t.lambda / sigma)
            let theta = t.omega / sigma
            let p1 = 2 * r * cos(theta)
            let p2 = -r * r
            let g1 = r * (t.a * cos(theta) + t.b * sin(theta))  // impulse response at n = 1
            let n0 = t.a
            let n1 = g1 - p1 * t.a
            let m1 = g1
            let m2 = -r * r * t.a
            raw.append((n0, n1, m1, m2, p1, p2))
            dc += (n0 + n1 + m1 + m2) / (1 - p1 - p2)
        }
        sections = raw.map { s in
            let n0 = s.n0 / dc
            let n1 = s.n1 / dc
            let m1 = s.m1 / dc
            let m2 = s.m2 / dc
            let denominator = 1 - s.p1 - s.p2
            return Section(
                n0: Float(n0),
                n1: Float(n1),
                m1: Float(m1),
                m2: Float(m2),
                p1: Float(s.p1),
                p2: Float(s.p2),
                causalGain: Float((n0 + n1) / denominator),
                anticausalGain: Float((m1 + m2) / denominator)
            )
        }
    }
}
