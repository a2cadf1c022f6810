extension BlurRadius {
    /// The legibility floor's slope and intercept: σ = `unreadableSlope`·size + `unreadableIntercept`,
    /// a line on or above every floor `Benchmarks/run-legibility` measured (the smallest σ at which
    /// Tesseract reads at most 5% of a label's characters after ×4 upscaling and unsharp masking;
    /// the points and the table are in docs/privacy.md).
    package static let unreadableSlope = 0.13
    package static let unreadableIntercept = 0.7

    /// The smallest blur that makes text of `size` px unreadable to OCR: the legibility floor for
    /// that size (docs/privacy.md), rounded up to a tenth of a pixel. Not a guarantee against the
    /// candidate attack: for that, secure mode.
    public static func unreadable(forSize size: Double) -> BlurRadius {
        let sigma = (unreadableSlope * max(size, 0) + unreadableIntercept) * 10
        // Less a hair, so a product such as 0.15·32 = 4.800000000000001 is not lifted a tenth.
        return BlurRadius(checked: min((sigma - 1e-9).rounded(.up) / 10, maximum))
    }
}
