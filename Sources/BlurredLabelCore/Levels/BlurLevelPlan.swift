import BlurLabelPixels
import BlurLabelSystem

/// What every level of `BlurLevels` shares, made once: the padded masks and the canvas. A level
/// is then one blur and one composite, so levels can be made one at a time (an animation streams
/// them; `blurlabel animate` uses this type directly, without Swift Concurrency).
package struct BlurLevelPlan: Sendable {
    package let maxRadius: BlurRadius
    package let steps: Int
    package let pipeline: LabelPipeline
    /// The canvas every level has.
    package let width: Int
    package let height: Int
    /// The sharp text's ink, padded by the largest radius's reach; made only if level 0 is asked
    /// for in secure mode (where only the decoy is rendered otherwise).
    private let sharp: @Sendable () throws -> LabelInk
    /// What the blurred levels blur: the text's ink, or the decoy's in secure mode.
    private let toBlur: LabelInk

    package init(text: String, style: LabelStyle, maxRadius: BlurRadius, steps: Int) throws {
        guard steps >= 1, steps <= Limits.maximumSteps else { throw LabelError.badSteps(steps) }
        self.maxRadius = maxRadius
        self.steps = steps
        pipeline = LabelPipeline(style: style)
        try style.checkPadding()
        try style.checkSecureRadius(maxRadius)
        let pad = pipeline.padding(radius: maxRadius)
        let pipeline = self.pipeline
        switch try pipeline.source(of: text) {
        case let .decoy(decoy):
            toBlur = try pipeline.ink(of: decoy, padding: pad)
            // The real text is only rendered if level 0 is asked for.
            sharp = { try pipeline.ink(of: try pipeline.renderText(text), padding: pad) }
        case let .text(rendered):
            let ink = try pipeline.ink(of: rendered, padding: pad)
            toBlur = ink
            sharp = { ink }
        }
        let size = toBlur.size
        width = style.canvas?.width ?? max(1, size.width)
        height = style.canvas?.height ?? max(1, size.height)
    }

    /// σ of step `index`.
    package func radius(ofStep index: Int) -> BlurRadius { maxRadius.step(index, of: steps) }

    /// Level `index` (0 is the sharp text; 1…steps are blurred).
    package func level(_ index: Int) throws -> Image {
        // Beyond `steps` the blur would outgrow the canvas, padded for `maxRadius` only.
        guard index >= 0, index <= steps else { throw LabelError.badLevel(index, steps: steps) }
        let ink =
            index == 0
            ? try sharp() : pipeline.blurred(toBlur, radius: radius(ofStep: index), threads: 1, keepingScratch: true)
        return try pipeline.composite(ink, canvas: (width, height)).image
    }

    /// The levels `indices` names, in that order, made on up to `threads` threads.
    package func levels(_ indices: [Int], threads: Int = defaultThreadCount) throws -> [Image] {
        try parallelMap(indices.count, threads: threads) { i in Result { try level(indices[i]) } }.map { try $0.get() }
    }
}

/// The levels' defaults, the one definition `BlurLevels` and `blurlabel animate` share: σ up to 20
/// in 20 steps. (`@usableFromInline`: `BlurLevels`' public initialisers name them as defaults.)
@usableFromInline package enum BlurLevelDefaults {
    @usableFromInline package static let maxRadius: BlurRadius = 20
    @usableFromInline package static let steps = 20
}
