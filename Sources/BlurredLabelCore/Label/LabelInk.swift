import BlurLabelPixels
import BlurLabelText

/// What a label's picture shows (`LabelPipeline.source(of:)`): the text's rendering, or in secure
/// mode the decoy's, the text itself then never rendered.
package enum LabelSource: Sendable {
    case text(RenderedText)
    case decoy(RenderedText)

    /// What is drawn.
    package var rendered: RenderedText {
        switch self {
        case let .text(rendered), let .decoy(rendered): return rendered
        }
    }

    /// The text's own rendering; nil in secure mode, where it was never made.
    package var text: RenderedText? {
        if case let .text(rendered) = self { return rendered }
        return nil
    }
}

/// A label's ink on its padded canvas, before the background is laid (`LabelPipeline.ink(of:…)`):
/// one colour's coverage, or premultiplied RGBA where colour glyphs (emoji) are drawn.
package enum LabelInk: Sendable {
    case coverage(CoverageMask)
    case color(Image)

    /// The ink's canvas size.
    package var size: (width: Int, height: Int) {
        switch self {
        case let .coverage(mask): return (mask.width, mask.height)
        case let .color(image): return (image.width, image.height)
        }
    }
}
