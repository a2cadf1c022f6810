import BlurLabelPixels

/// Choosing the font size at which a label fills a fixed canvas: the largest size, from a minimum
/// up to a maximum in steps of a quarter pixel, whose blurred, padded content fits the canvas.
/// So a grid of price tags of one size can be made without trial and error.
public enum FitToCanvas {
    /// The smallest size tried unless told otherwise, in pixels.
    public static let defaultMinimumSize = 6.0
    /// The step between sizes tried: a quarter pixel.
    package static let step = 0.25

    /// `style` with its text size set to the largest that fits `style.canvas` for `text` at blur
    /// `radius` (the style's own radius when nil; an animation passes its largest), searched from
    /// `minimumSize` to `maximumSize` (nil, the default: the largest size accepted). Throws
    /// `LabelError.doesNotFit` when even the minimum is too large, `LabelError.fitWithoutCanvas`
    /// when the style has no canvas, and `LabelError.overBudget` when the label at the minimum
    /// size would take more than `renderBudgetMegabytes` (a larger size over it does not fit).
    ///
    /// The content measured is what the picture places on the canvas: the ink box padded by the
    /// blur's reach and `style.padding`; in secure mode the decoy's, measured for every digit so
    /// that any decoy of the format fits. The search is a binary search over whole quarter pixels,
    /// so the same input always gives the same size.
    ///
    /// With `unreadable`, the blur at each size tried is `BlurRadius.unreadable(forSize:)` (the
    /// legibility floor), and the style returned has the floor for the size that fits.
    public static func style(
        _ style: LabelStyle,
        fitting text: String,
        radius: BlurRadius? = nil,
        unreadable: Bool = false,
        minimumSize: Double = defaultMinimumSize,
        maximumSize: Double? = nil,
        renderBudgetMegabytes: Int = 64
    ) throws -> LabelStyle {
        let budget = try RenderBudget(megabytes: renderBudgetMegabytes)
        let maximumSize = maximumSize ?? Limits.maximumFontSize
        guard let canvas = style.canvas else { throw LabelError.fitWithoutCanvas }
        guard minimumSize.isFinite, maximumSize.isFinite, minimumSize > 0, minimumSize <= maximumSize,
            maximumSize <= Limits.maximumFontSize
        else {
            throw LabelError.badFitRange(minimum: minimumSize, maximum: maximumSize)
        }
        let radius = radius ?? style.radius
        try style.checkPadding()
        func pad(_ size: Double) -> Int {
            LabelPipeline.reach(of: unreadable ? BlurRadius.legibilityFloor(forSize: size) : radius) + style.padding
        }
        // Quarter pixels, so the search runs over integers.
        var low = Int((minimumSize / step).rounded(.up))
        var high = Int((maximumSize / step).rounded(.down))
        guard low <= high else { throw LabelError.badFitRange(minimum: minimumSize, maximum: maximumSize) }
        func fits(_ quarters: Int) throws -> Bool {
            var sized = style
            sized.typography.size = Double(quarters) * step
            let width: Int
            let height: Int
            do { (width, height) = try contentSize(text, style: sized, budget: budget) } catch ImageError.invalidSize {
                return false  // ink larger than any image may be: certainly larger than the canvas
            } catch LabelError.overBudget where quarters > low {
                return false  // too costly to measure at this size; the minimum's cost is said
            }
            let pad = pad(sized.typography.size)
            return width == 0 || (width + 2 * pad <= canvas.width && height + 2 * pad <= canvas.height)
        }
        guard try fits(low) else {
            throw LabelError.doesNotFit(width: canvas.width, height: canvas.height, minimumSize: Double(low) * step)
        }
        // Invariant: fits(low); everything above high does not fit (or is out of range).
        while low < high {
            let middle = low + (high - low + 1) / 2
            if try fits(middle) { low = middle } else { high = middle - 1 }
        }
        var fitted = style
        fitted.typography.size = Double(low) * step
        if unreadable { fitted.radius = BlurRadius.legibilityFloor(forSize: fitted.typography.size) }
        return fitted
    }

    /// The ink box of what the picture blurs: the text, or in secure mode the union of the decoy's
    /// ink boxes with each digit in every place (tabular figures put every digit in one cell).
    static func contentSize(
        _ text: String,
        style: LabelStyle,
        budget: RenderBudget = .standard
    ) throws -> (width: Int, height: Int) {
        let pipeline = LabelPipeline(style: style, budget: budget)
        guard let secure = style.secure else {
            let mask = try pipeline.renderText(text).mask
            return (mask.width, mask.height)
        }
        let format = secure.format
        var minX = Int.max
        var minY = Int.max
        var maxX = Int.min
        var maxY = Int.min
        for digit in "0123456789" {
            let sample = String(format.template.map { $0 == "#" ? digit : $0 })
            let rendered = try pipeline.renderText(sample)
            guard rendered.mask.width > 0 else { continue }
            minX = min(minX, rendered.inkOriginX)
            minY = min(minY, rendered.inkOriginY)
            maxX = max(maxX, rendered.inkOriginX + rendered.mask.width)
            maxY = max(maxY, rendered.inkOriginY + rendered.mask.height)
        }
        return minX == Int.max ? (0, 0) : (maxX - minX, maxY - minY)
    }
}
