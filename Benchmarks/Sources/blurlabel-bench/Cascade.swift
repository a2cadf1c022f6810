import BenchPictures
import BlurredLabelCore

/// `blurlabel-bench cascade [WIDTHxHEIGHT] [R] [N]`: whether a picture's blur levels could be made
/// from one another (level i = level i−1 blurred by √(σᵢ² − σᵢ₋₁²)) instead of each from the
/// picture, as `ImageBlurLevelPlan` makes them: for every level, the largest difference from the
/// direct blur in 8-bit levels and the share of channels more than one level off, for clamped and
/// transparent edges, and the time of both ways.
enum Cascade {
    static func run(width: Int, height: Int, maxRadius: Double, steps: Int) throws {
        let picture = try Image(
            width: width,
            height: height,
            premultipliedRGBA: testPicture(width: width, height: height, channels: 4)
        )
        for edges in [BlurEdges.clamp, .transparent] {
            print("\(width)x\(height), sigma up to \(maxRadius) in \(steps) steps, edges \(edges):")
            var previous = picture
            var previousSigma = 0.0
            var directTime = 0.0
            var cascadeTime = 0.0
            var worst = 0
            for i in 1...steps {
                let sigma = maxRadius * Double(i) / Double(steps)
                var t0 = now()
                let direct = try GaussianBlur(sigma: sigma, edges: edges).apply(to: picture)
                directTime += now() - t0
                t0 = now()
                let step = (sigma * sigma - previousSigma * previousSigma).squareRoot()
                let cascaded = try GaussianBlur(sigma: step, edges: edges).apply(to: previous)
                cascadeTime += now() - t0
                var largest = 0
                var over = 0
                for k in 0..<direct.pixels.count {
                    let d = abs(Int(direct.pixels[k]) - Int(cascaded.pixels[k]))
                    largest = max(largest, d)
                    if d > 1 { over += 1 }
                }
                worst = max(worst, largest)
                print(
                    "  level \(i) sigma \(sigma) (cascade step \((step * 1000).rounded() / 1000)): largest difference \(largest), "
                        + "\(over) of \(direct.pixels.count) channels over one level"
                )
                previous = cascaded
                previousSigma = sigma
            }
            print(
                "  worst \(worst) levels; direct \(Int(directTime * 1000)) ms, cascade \(Int(cascadeTime * 1000)) ms in all"
            )
        }
    }
}
