import BlurredLabelCore

/// The library's errors speak of its own values (a canvas, a minimum size, a pixel limit); this
/// is the one place that says them again in the flags a user typed.
enum FlagMessages {
    /// The message for `error` as the command line shows it.
    static func message(for error: any Error) -> String {
        if let usage = error as? UsageError { return usage.message }
        if let label = error as? LabelError {
            switch label {
            case .fitWithoutCanvas:
                return "\(LabelOptions.fit.name) needs \(LabelOptions.canvas.name) WxH"
            case let .doesNotFit(width, height, size):
                return
                    "the label does not fit a \(width)x\(height) canvas even at the minimum size of \(size) px (give a larger \(LabelOptions.canvas.name), a smaller \(LabelOptions.minimumSize.name), \(LabelOptions.radius.name) or \(LabelOptions.padding.name))"
            default: break
            }
        }
        if let png = error as? PNGError, case let .tooLarge(source, width, height, limit) = png {
            return
                "\(source): image is \(width)x\(height) = \(width * height) pixels, over the limit of \(limit) (raise it with \(CommonOptions.maxPixels.name))"
        }
        return "\(error)"
    }
}
