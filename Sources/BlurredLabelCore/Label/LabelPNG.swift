import BlurLabelCodecs

/// A label's picture written as PNG, with what `picture(of:)` says about it.
package struct EncodedLabel: Sendable {
    package let bytes: [UInt8]
    package let clipped: Bool
    package let missingCharacters: [Unicode.Scalar]
    package let fontWarnings: [String]
    /// True when the grey rows were composited straight from the blurred mask (for tests).
    package let viaGreyRows: Bool
}

extension LabelPipeline {
    /// The label's picture as PNG, what `batch` and `serve` write: the bytes
    /// `encoder.encode(picture(of: text).image)` gives. A label whose colour and background are
    /// opaque greys (black on white, the price tag) on a canvas of its own size goes from the
    /// blurred mask straight to the PNG's grey rows (`PNGEncoder.encodeGrey`), skipping the RGBA
    /// picture, the colour survey and the row packing.
    package func png(of text: String, encoder: PNGEncoder) throws -> EncodedLabel {
        let (source, blurred) = try blurredInk(of: text)
        let missing = source.text?.missingCharacters ?? []
        let warnings = source.text?.fontWarnings ?? []
        if style.canvas == nil, case let .coverage(mask) = blurred,
            let levels = Composite.greyTable(color: style.color, background: style.background),
            let bytes = encoder.encodeGrey(mask, levels: levels)
        {
            return EncodedLabel(
                bytes: bytes,
                clipped: false,
                missingCharacters: missing,
                fontWarnings: warnings,
                viaGreyRows: true
            )
        }
        let (image, clipped) = try composite(blurred)
        return EncodedLabel(
            bytes: try encoder.encode(image),
            clipped: clipped,
            missingCharacters: missing,
            fontWarnings: warnings,
            viaGreyRows: false
        )
    }
}

extension LabelPipeline {
    /// The label's picture as a file in `format`: for PNG the bytes of `png(of:encoder:)`, for
    /// WebP and AVIF the composited picture through their encoders.
    package func file(of text: String, format: PictureFormat, encoder: PNGEncoder) throws -> EncodedLabel {
        guard format != .png else { return try png(of: text, encoder: encoder) }
        let picture = try picture(of: text)
        return EncodedLabel(
            bytes: try encoder.encode(picture.image, as: format),
            clipped: picture.clipped,
            missingCharacters: picture.missingCharacters,
            fontWarnings: picture.fontWarnings,
            viaGreyRows: false
        )
    }
}
