import Foundation

/// A label's blur from 0 to full as precomputed levels, as the view this grew from: `amount`
/// 0…1 maps to σ = amount × `maxRadius` in `steps` steps, each built once, concurrently, in the
/// background; asking for an amount between steps gives the nearest step. Every level has the
/// canvas of the largest radius, so nothing jumps while the blur changes.
public actor BlurLevels {
    public nonisolated let text: String
    public nonisolated let style: LabelStyle
    public nonisolated let maxRadius: Double
    public nonisolated let steps: Int

    private var levels: [Image]?
    private var building: Task<[Image], Error>?

    /// Levels for `text` in `style` (whose own radius is ignored), σ up to `maxRadius` (default 20)
    /// in `steps` (default 20) steps.
    public init(text: String, style: LabelStyle = LabelStyle(), maxRadius: Double = 20, steps: Int = 20) throws {
        guard maxRadius.isFinite, maxRadius >= 0, maxRadius <= 1000 else { throw LabelError.badRadius(maxRadius) }
        guard steps >= 1, steps <= 1000 else { throw LabelError.badSteps(steps) }
        self.text = text
        self.style = style
        self.maxRadius = maxRadius
        self.steps = steps
    }

    /// σ of step `index` (0 is sharp).
    public nonisolated func radius(ofStep index: Int) -> Double { maxRadius * Double(index) / Double(steps) }

    /// The step nearest to `amount`.
    public nonisolated func step(for amount: Double) throws -> Int {
        guard amount.isFinite, amount >= 0, amount <= 1 else { throw LabelError.badAmount(amount) }
        return Int((amount * Double(steps)).rounded())
    }

    /// Builds every level (once; later calls wait for the same work). Never blocks the caller's thread.
    public func prepare() async throws {
        _ = try await all()
    }

    /// True once every level exists.
    public var isReady: Bool { levels != nil }

    /// The picture at `amount` (0…1), built on first use.
    public func image(amount: Double) async throws -> Image {
        try await all()[try step(for: amount)]
    }

    /// Every level, sharp first.
    public func all() async throws -> [Image] {
        if let levels { return levels }
        if building == nil {
            let text = text, style = style, steps = steps, maxRadius = maxRadius
            building = Task.detached(priority: .utility) {
                try Self.build(text: text, style: style, maxRadius: maxRadius, steps: steps)
            }
        }
        let built = try await building!.value
        levels = built
        return built
    }

    /// Renders the text once, then blurs it at every step, the steps spread over every core.
    /// Synchronous; `prepare()` and `image(amount:)` run it off the caller's thread.
    public static func build(text: String, style: LabelStyle, maxRadius: Double, steps: Int,
                             threads: Int = defaultThreadCount) throws -> [Image] {
        let pad = Int((3 * maxRadius).rounded(.up))
        let mask = try TextRenderer.render(text, style: style.text).mask.padded(by: pad)
        let results = ParallelSlots<Result<Image, Error>>(count: steps + 1)
        parallelRanges(steps + 1, threads: threads) { indices in
            for index in indices {
                results.set(index, Result {
                    let sigma = maxRadius * Double(index) / Double(steps)
                    let blurred = try GaussianBlur(sigma: sigma, edges: .transparent).apply(to: mask, threads: 1)
                    return try Composite.centered(blurred, style: style).image
                })
            }
        }
        return try results.values.map { try $0.get() }
    }
}
