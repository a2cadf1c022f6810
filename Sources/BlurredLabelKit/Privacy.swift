extension BlurRadius {
    /// The smallest blur that makes text of `size` px unreadable to OCR, the legibility floor: the
    /// σ at which Tesseract reads at most 5% of a label's characters, even upscaled and sharpened
    /// (σ = 0.13·size + 0.7, rounded up to a tenth; measured by `Benchmarks/run-legibility`, see
    /// docs/privacy.md). Secure mode needs at least this. It hides text from OCR and a glance,
    /// not from someone who renders every candidate and compares: for that, secure mode.
    public static func unreadable(forSize size: Double) -> BlurRadius { legibilityFloor(forSize: size) }
}

extension Redaction {
    /// Pixels a `secure` or `blur` region grows by on every side before it is applied (2 unless
    /// set, at most 10,000), so a box drawn tight to text also covers its antialiased edge.
    public var margin: Int {
        get { regionMargin }
        set { regionMargin = newValue }
    }
}
