/// What every level of `BlurLevels` shares, made once: the padded masks and the canvas. A level
/// is then one blur and one composite, so levels can be made one at a time (an animation streams
/// them; `blurlabel animate` uses this type directly, without Swift Concurrency).
public struct BlurLevelPlan: Sendable {
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
        try style.checkPadding()
        let pad = pipeline.padding(radius: maxRadius)
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
        // Beyond `steps` the blur would outgrow the canvas, padded for `maxRadius` only.
        guard index >= 0, index <= steps else { throw LabelError.badLevel(index, steps: steps) }
        if index == 0, let text = try colorSharp() {
            return try pipeline.colorPicture(text, padding: pad, radius: 0, canvas: (width, height), threads: 1).image
        }
        if index > 0, let colorSource {
            return try pipeline.colorPicture(
                colorSource,
                padding: pad,
                radius: radius(ofStep: index),
                canvas: (width, height),
                threads: 1
            ).image
        }
        let mask = index == 0 ? try sharp() : try pipeline.blurred(toBlur, radius: radius(ofStep: index), threads: 1)
        return try pipeline.composite(mask, width: width, height: height)
    }

    /// The levels `indices` names, in that order, made on up to `threads` threads.
    public func levels(_ indices: [Int], threads: Int = defaultThreadCount) throws -> [Image] {
        try parallelMap(indices.count, threads: threads) { i in Result { try level(indices[i]) } }.map { try $0.get() }
    }
}
