import BlurredLabelCore

/// The library's errors speak of its own values (a canvas, a minimum size, a pixel limit); this
/// is the one place that says them again in the flags a user typed.
package enum FlagMessages {
    /// The message for `error` as the command line shows it.
    package static func message(for error: any Error) -> String {
        if let usage = error as? UsageError { return usage.message }
        if let label = error as? LabelError {
            switch label {
            case .fitWithoutCanvas:
                return "\(LabelOptions.fit.name) needs \(LabelOptions.canvas.name) WxH"
            case let .doesNotFit(width, height, size):
                return
                    "the label does not fit a \(width)x\(height) canvas even at the minimum size of \(size) px (give a larger \(LabelOptions.canvas.name), a smaller \(LabelOptions.minimumSize.name), \(LabelOptions.radius.name) or \(LabelOptions.padding.name))"
            case .overBudget:
                return "\(label) (\(CommonOptions.maxRenderMegabytes.name))"
            default: break
            }
        }
        if let blur = error as? BlurError {
            // No command gets here: each σ option says its own refusal (`ValueKind.sigma`).
            return message(for: blur, option: LabelOptions.radius.name, given: nil)
        }
        if let png = error as? PNGError, case let .tooLarge(source, width, height, limit) = png {
            return
                "\(source): image is \(width)x\(height) = \(width * height) pixels, over the limit of \(limit) (raise it with \(CommonOptions.maxPixels.name))"
        }
        return "\(error)"
    }

    /// `BlurRadius`'s refusal of the σ given as `option` (`--radius`, `--max-radius`).
    static func message(for error: BlurError, option: String, given: OptionValue?) -> String {
        switch error {
        case let .invalidRadius(sigma):
            let shown: String
            switch given {
            case let .text(text)?: shown = text
            default: shown = formatNumber(sigma)
            }
            return "\(option) must be from 0 to \(formatNumber(Limits.maximumRadius)), got \(shown)"
        }
    }
}
