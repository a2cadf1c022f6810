import Testing

@testable import BlurredLabelCore

/// The small-σ FIR's bytes, pinned. The clone tests compare every CPU variant with the baseline,
/// which runs the same source: a change to that source that moved a byte would move it in every
/// variant alike and pass them. These hashes were taken from the kernels before their loops were
/// restructured (unrolled taps, the centre's whole part as a constant, full blocks stored
/// straight to the rows, consecutive ring slots), so any speed-up must keep them.
@Suite("Small-σ FIR bytes")
struct FixedFIRBytesTests {
    /// 64-bit FNV-1a.
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    /// σ 0.25 and 0.5 (centre weight at least one half: its whole part added), 0.7 to 1.2
    /// (radius 3 and 4, compiled with the radius known), 2.5 and 8.99 (the general loop, an odd
    /// radius and the largest); widths whose rows end inside a block (203 and 4 × 203 samples),
    /// an odd height, cut into chunks of odd and even row counts for 2 and 3 threads (the hash
    /// must not depend on the thread count either).
    static let expected: [String: UInt64] = [
        "0.25 clamp rgba": 0xfd7b_f48a_51c3_8e4a, "0.25 clamp mask": 0xb41e_6f8d_6a84_f8b0,
        "0.25 transparent rgba": 0xfd7b_f48a_51c3_8e4a, "0.25 transparent mask": 0xb41e_6f8d_6a84_f8b0,
        "0.5 clamp rgba": 0x18c1_393b_3777_3477, "0.5 clamp mask": 0xbbe7_402c_3a93_7b8e,
        "0.5 transparent rgba": 0x9ebc_5929_745f_3ad3, "0.5 transparent mask": 0x468e_187c_afd3_5c0d,
        "0.7 clamp rgba": 0x587e_f8c7_6bc9_c850, "0.7 clamp mask": 0x62e3_31db_6098_13d1,
        "0.7 transparent rgba": 0xefc5_9051_82c1_e23a, "0.7 transparent mask": 0xb9a4_1bc8_b240_b772,
        "1.0 clamp rgba": 0x6216_0d56_377f_b176, "1.0 clamp mask": 0x489e_2220_72ad_197e,
        "1.0 transparent rgba": 0x412f_c697_e016_8468, "1.0 transparent mask": 0xe21b_4e7c_ba1a_410f,
        "1.2 clamp rgba": 0x13d_3b93_ef1b_9928, "1.2 clamp mask": 0xbb4e_8700_2a07_ae1c,
        "1.2 transparent rgba": 0x94f0_3b07_3097_4d98, "1.2 transparent mask": 0xab51_7591_5462_cfca,
        "2.5 clamp rgba": 0x2eae_5d4f_fc16_9711, "2.5 clamp mask": 0x5e3f_de37_9d00_ee92,
        "2.5 transparent rgba": 0xfb2c_4357_2d8c_5e20, "2.5 transparent mask": 0x8c6e_2145_31ef_3c38,
        "8.99 clamp rgba": 0x1e46_8cb9_c77e_5237, "8.99 clamp mask": 0x3379_dae0_6f47_4874,
        "8.99 transparent rgba": 0x120e_35bd_ddc0_dc4b, "8.99 transparent mask": 0x1314_4b98_aca0_8bf0,
    ]

    @Test(
        "the bytes of every small-σ shape are those of the kernels before their restructuring",
        arguments: [0.25, 0.5, 0.7, 1, 1.2, 2.5, 8.99]
    )
    func pinned(sigma: Double) throws {
        var random = TestRandom(state: 41)
        let width = 203
        let height = 651  // the mask is split between threads from 2 × 65,536 samples on
        let pixels = random.premultipliedRGBA(count: width * height)
        let image = try Image(width: width, height: height, premultipliedRGBA: pixels)
        let mask = try CoverageMask(
            width: width,
            height: height,
            values: hardEdgedMask(width: width, height: height, seed: 9)
        )
        for edges in [BlurEdges.clamp, .transparent] {
            let blur = try GaussianBlur(sigma: sigma, edges: edges)
            for threads in [1, 2, 3] {
                let rgba = Self.hash(blur.apply(to: image, threads: threads).pixels)
                let coverage = Self.hash(blur.apply(to: mask, threads: threads).values)
                let key = "\(sigma) \(edges)"
                #expect(rgba == Self.expected["\(key) rgba"], "RGBA σ \(sigma) \(edges), \(threads) threads")
                #expect(coverage == Self.expected["\(key) mask"], "mask σ \(sigma) \(edges), \(threads) threads")
            }
        }
    }

    /// Wide rows: two column tiles at each radius (the ring's tile is 1,536 to 1,792 samples here)
    /// and the horizontal pass taken by residue class with every count of steps left over (σ 6.6,
    /// 7 and 8.99: radius 24, 25 and 32), RGBA and masks, 1 to 3 threads. Hashes taken from the
    /// kernels before the pass went by class and before the ring's rows were spaced over the cache.
    static let wide: [String: UInt64] = [
        "6.6 rgba": 0x678a_bb6f_4459_6de4, "6.6 mask": 0xef53_83e8_2562_93e0,
        "7.0 rgba": 0xbc09_dea9_a4a9_13e2, "7.0 mask": 0x2199_5bba_347e_8771,
        "8.99 rgba": 0x5005_2807_8e98_b9dc, "8.99 mask": 0xd3cf_5301_2e7a_edd5,
    ]

    @Test("wide rows keep their bytes (column tiles, taps by class)", arguments: [6.6, 7, 8.99])
    func wideRows(sigma: Double) throws {
        var random = TestRandom(state: 77)
        let width = 517
        let height = 67
        let pixels = random.premultipliedRGBA(count: width * height)
        let image = try Image(width: width, height: height, premultipliedRGBA: pixels)
        let mask = try CoverageMask(
            width: 4 * width,
            height: height,
            values: hardEdgedMask(width: 4 * width, height: height, seed: 3)
        )
        let blur = try GaussianBlur(sigma: sigma, edges: .transparent)
        for threads in [1, 2, 3] {
            let rgba = Self.hash(blur.apply(to: image, threads: threads).pixels)
            let coverage = Self.hash(blur.apply(to: mask, threads: threads).values)
            #expect(rgba == Self.wide["\(sigma) rgba"], "RGBA σ \(sigma), \(threads) threads")
            #expect(coverage == Self.wide["\(sigma) mask"], "mask σ \(sigma), \(threads) threads")
        }
    }
}
