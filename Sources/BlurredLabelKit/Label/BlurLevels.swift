
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

    /// What every level shares, made once: the padded masks and the canvas. A level is then one
    /// blur and one composite, so levels can be made one at a time (an animation streams them).
    public struct Plan: Sendable {
        public let maxRadius: Double
        public let steps: Int
        public let pipeline: LabelPipeline
        /// The canvas every level has.
        public let width: Int
        public let height: Int
        /// The sharp text, padded by the largest radius's reach.
        private let sharp: @Sendable () throws -> CoverageMask
        /// What the blurred levels blur: the text, or the decoy in secure mode.
        private let toBlur: CoverageMask
        /// The same when it has colour glyphs (blurred as premultiplied RGBA instead), else nil.
        private let colorSource: RenderedText?
        /// The sharp text when it has colour glyphs, made only if level 0 is asked for.
        private let colorSharp: @Sendable () throws -> RenderedText?
        private let pad: Int

        public init(text: String, style: LabelStyle, maxRadius: Double, steps: Int) throws {
            guard Limits.isValidRadius(maxRadius) else { throw LabelError.badRadius(maxRadius) }
            guard steps >= 1, steps <= Limits.maximumSteps else { throw LabelError.badSteps(steps) }
            self.maxRadius = maxRadius
            self.steps = steps
            pipeline = LabelPipeline(style: style)
            guard style.padding >= 0, style.padding <= LabelStyle.maximumPadding else { throw LabelError.badPadding(style.padding) }
            let pad = LabelPipeline.padding(radius: maxRadius) + style.padding
            let pipeline = self.pipeline
            self.pad = pad
            if let decoy = try pipeline.renderDecoy(for: text) {
                toBlur = try decoy.mask.padded(by: pad)
                colorSource = decoy.colorLayer != nil ? decoy : nil
                // The real text is only rendered if level 0 is asked for.
                sharp = { try pipeline.sharpMask(try pipeline.renderText(text), decoy: nil, padding: pad) }
                colorSharp = {
                    let rendered = try pipeline.renderText(text)
                    return rendered.colorLayer != nil ? rendered : nil
                }
            } else {
                let rendered = try pipeline.renderText(text)
                let mask = try pipeline.sharpMask(rendered, decoy: nil, padding: pad)
                toBlur = mask
                sharp = { mask }
                colorSource = rendered.colorLayer != nil ? rendered : nil
                let colorText = colorSource
                colorSharp = { colorText }
            }
            width = style.canvas?.width ?? max(1, toBlur.width)
            height = style.canvas?.height ?? max(1, toBlur.height)
        }

        /// σ of step `index`.
        public func radius(ofStep index: Int) -> Double { maxRadius * Double(index) / Double(steps) }

        /// Level `index` (0 is the sharp text; 1…steps are blurred).
        public func level(_ index: Int) throws -> Image {
            if index == 0, let text = try colorSharp() {
                return try pipeline.colorPicture(text, padding: pad, radius: 0, canvas: (width, height), threads: 1).image
            }
            if index > 0, let colorSource {
                return try pipeline.colorPicture(colorSource, padding: pad, radius: radius(ofStep: index), canvas: (width, height), threads: 1).image
            }
            let mask = index == 0 ? try sharp() : try pipeline.blurred(toBlur, radius: radius(ofStep: index), threads: 1)
            return try pipeline.composite(mask, width: width, height: height)
        }

        /// The levels `indices` names, in that order, made on up to `threads` threads.
        public func levels(_ indices: [Int], threads: Int = defaultThreadCount) throws -> [Image] {
            try parallelMap(indices.count, threads: threads) { i in Result { try level(indices[i]) } }.map { try $0.get() }
        }
    }
}
