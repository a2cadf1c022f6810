import BlurredLabelCore

/// A label's blur from 0 to full as precomputed levels, as the view this grew from: `amount`
/// 0…1 maps to σ = amount × `maxRadius` in `steps` steps, each built once, concurrently, in the
/// background; asking for an amount between steps gives the nearest step. Every level has the
/// canvas of the largest radius, so nothing jumps while the blur changes.
///
/// In secure mode (`style.secure`) every blurred level is made from one decoy of the declared
/// format, never from the text, and the levels' canvas is the decoy's: no level above 0 depends
/// on the text. Level 0 (amount 0) is the sharp real text, as `BlurredLabel.unblur()` shows it,
/// centered on that canvas (clipped if the text is longer than the format's longest form).
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
        guard Limits.isValidRadius(maxRadius) else { throw LabelError.badRadius(maxRadius) }
        guard steps >= 1, steps <= Limits.maximumSteps else { throw LabelError.badSteps(steps) }
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
        try Plan(text: text, style: style, maxRadius: maxRadius, steps: steps).levels(Array(0...steps), threads: threads)
    }

    /// What every level shares, made once (see `BlurLevelPlan`).
    public typealias Plan = BlurLevelPlan
}
