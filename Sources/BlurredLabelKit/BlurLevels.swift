import BlurredLabelCore

/// A label's or a picture's blur from 0 to full as precomputed levels, as the view this grew
/// from: `amount` 0…1 maps to σ = amount × `maxRadius` in `steps` steps, each built once,
/// concurrently, in the background; asking for an amount between steps gives the nearest step.
/// Every level has the canvas of the largest radius, so nothing jumps while the blur changes.
///
/// A picture's levels (`init(image:…)`) have the picture's size: amount 0 is the picture itself,
/// and level i is the picture blurred at σᵢ = `maxRadius`·i/`steps`, byte for byte what
/// `GaussianBlur(sigma: σᵢ, edges: edges, tint: tint)` makes of it. Edges are clamped by default
/// (the border pixels repeat, as a view's snapshot does not fade at its border); `.transparent`
/// lets the blur fade out there. A `tint` veils every blurred level (see `Veil`), not level 0.
/// All levels together are held to `Limits.maximumLevelPixels` (2^28 pixels), checked by `build`.
///
/// In secure mode (`style.secure`) every blurred level is made from one decoy of the declared
/// format, never from the text, and the levels' canvas is the decoy's: no level above 0 depends
/// on the text. Level 0 (amount 0) is the sharp real text, as `BlurredLabel.unblur()` shows it,
/// centered on that canvas (clipped if the text is longer than the format's longest form).
public actor BlurLevels {
    /// What the levels blur.
    public enum Source: Sendable {
        /// A label: its text, in a style.
        case text(String, LabelStyle)
        /// A picture, with what lies beyond its border and the veil over its blurred levels.
        case image(Image, edges: BlurEdges, tint: Color?)
    }

    public nonisolated let source: Source
    /// The label's text (empty for a picture's levels).
    public nonisolated var text: String {
        if case let .text(text, _) = source { return text }
        return ""
    }
    /// The label's style (the default style for a picture's levels).
    public nonisolated var style: LabelStyle {
        if case let .text(_, style) = source { return style }
        return LabelStyle()
    }
    public nonisolated let maxRadius: BlurRadius
    public nonisolated let steps: Int

    private var levels: [Image]?
    private var building: Task<[Image], Error>?

    /// Levels for `text` in `style` (whose own radius is ignored), σ up to `maxRadius` (default 20)
    /// in `steps` (default 20) steps.
    public init(
        text: String,
        style: LabelStyle = LabelStyle(),
        maxRadius: BlurRadius = BlurLevelDefaults.maxRadius,
        steps: Int = BlurLevelDefaults.steps
    ) throws {
        guard steps >= 1, steps <= Limits.maximumSteps else { throw LabelError.badSteps(steps) }
        self.source = .text(text, style)
        self.maxRadius = maxRadius
        self.steps = steps
    }

    /// Levels for a picture, σ up to `maxRadius` (default 20) in `steps` (default 20) steps, its
    /// edges clamped unless `edges` says `.transparent`, every blurred level under `tint` if one is
    /// given. A picture whose levels together would exceed `Limits.maximumLevelPixels` is refused
    /// here, before anything is made (`LabelError.tooManyLevelPixels`).
    public init(
        image: Image,
        maxRadius: BlurRadius = BlurLevelDefaults.maxRadius,
        steps: Int = BlurLevelDefaults.steps,
        edges: BlurEdges = .clamp,
        tint: Color? = nil
    ) throws {
        guard steps >= 1, steps <= Limits.maximumSteps else { throw LabelError.badSteps(steps) }
        try Self.checkLevelPixels(width: image.width, height: image.height, steps: steps)
        self.source = .image(image, edges: edges, tint: tint)
        self.maxRadius = maxRadius
        self.steps = steps
    }

    /// σ of step `index` (0 is sharp).
    public nonisolated func radius(ofStep index: Int) -> BlurRadius { maxRadius.step(index, of: steps) }

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
            let source = source
            let steps = steps
            let maxRadius = maxRadius
            building = Task.detached(priority: .utility) {
                switch source {
                case let .text(text, style):
                    return try Self.build(text: text, style: style, maxRadius: maxRadius, steps: steps)
                case let .image(image, edges, tint):
                    return try Self.build(image: image, maxRadius: maxRadius, steps: steps, edges: edges, tint: tint)
                }
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
    package static func build(
        text: String,
        style: LabelStyle,
        maxRadius: BlurRadius,
        steps: Int,
        threads: Int = defaultThreadCount
    ) throws -> [Image] {
        let plan = try Plan(text: text, style: style, maxRadius: maxRadius, steps: steps)
        try checkLevelPixels(width: plan.width, height: plan.height, steps: steps)
        return try plan.levels(Array(0...steps), threads: threads)
    }

    /// A picture's levels (see `init(image:…)`), made on up to `threads` threads; the same bytes
    /// for any count. Synchronous, as the text form; the same limit.
    package static func build(
        image: Image,
        maxRadius: BlurRadius,
        steps: Int,
        edges: BlurEdges = .clamp,
        tint: Color? = nil,
        threads: Int = defaultThreadCount
    ) throws -> [Image] {
        let plan = try ImagePlan(image: image, maxRadius: maxRadius, steps: steps, edges: edges, tint: tint)
        try checkLevelPixels(width: plan.width, height: plan.height, steps: steps)
        return try plan.levels(Array(0...steps), threads: threads)
    }

    /// Refuses levels that together would hold more than `Limits.maximumLevelPixels` pixels.
    static func checkLevelPixels(width: Int, height: Int, steps: Int) throws {
        let total = (width * height).multipliedReportingOverflow(by: steps + 1)
        guard !total.overflow, total.partialValue <= Limits.maximumLevelPixels else {
            throw LabelError.tooManyLevelPixels(
                levels: steps + 1,
                width: width,
                height: height,
                limit: Limits.maximumLevelPixels
            )
        }
    }

    /// What every level shares, made once (see `BlurLevelPlan`).
    package typealias Plan = BlurLevelPlan
    /// A picture's levels, made one at a time (see `ImageBlurLevelPlan`).
    package typealias ImagePlan = ImageBlurLevelPlan
}
