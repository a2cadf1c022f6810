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
        let step = try step(for: amount)  // a bad amount is refused before anything is built
        return try await all()[step]
    }

    /// Every level, sharp first.
    public func all() async throws -> [Image] {
        if let levels { return levels }
        if building == nil {
            let text = text
            let style = style
            let steps = steps
            let maxRadius = maxRadius
            building = Task.detached(priority: .utility) {
                try Self.build(text: text, style: style, maxRadius: maxRadius, steps: steps)
            }
        }
        let built = try await building!.value
        levels = built
        return built
    }

    /// Renders the text once, then blurs it at every step, the steps spread over every core.
    /// Synchronous; `prepare()` and `image(amount:)` run it off the caller's thread. Every level is
    /// kept, so all of them together may hold at most `Limits.maximumLevelPixels` pixels (1000
    /// steps up to σ 1000 would be 147 GB): more is refused before any is made.
    public static func build(
        text: String,
        style: LabelStyle,
        maxRadius: Double,
        steps: Int,
        threads: Int = defaultThreadCount
    ) throws -> [Image] {
        let plan = try Plan(text: text, style: style, maxRadius: maxRadius, steps: steps)
        let total = (plan.width * plan.height).multipliedReportingOverflow(by: steps + 1)
        guard !total.overflow, total.partialValue <= Limits.maximumLevelPixels else {
            throw LabelError.tooManyLevelPixels(
                levels: steps + 1,
                width: plan.width,
                height: plan.height,
                limit: Limits.maximumLevelPixels
            )
        }
        return try plan.levels(Array(0...steps), threads: threads)
    }

    /// What every level shares, made once (see `BlurLevelPlan`).
    public typealias Plan = BlurLevelPlan
}
