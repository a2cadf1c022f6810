/// Secure mode's two refusals, made before anything is laid out: a text longer than the format,
/// and a blur under the legibility floor for the label's size.
extension LabelStyle {
    /// In secure mode, refuses a blur of `radius` under `BlurRadius.unreadable(forSize:)` for the
    /// style's size: the decoy would read as a crisp, believable wrong value.
    package func checkSecureRadius(_ radius: BlurRadius) throws {
        guard secure != nil else { return }
        let floor = BlurRadius.unreadable(forSize: typography.size)
        guard radius >= floor else {
            throw SecureLabelError.radiusBelowFloor(radius: radius.sigma, floor: floor.sigma, size: typography.size)
        }
    }
}

extension LabelPipeline {
    /// Refuses what the picture cannot be made of: in secure mode a text longer than the format
    /// (in time that depends only on the format), else one over `Limits.maximumTextScalars` or
    /// with too many combining marks in a row.
    package func checkSource(_ text: String) throws {
        if let secure = style.secure { return try secure.format.check(text) }
        try Self.checkLength(text)
    }
}
