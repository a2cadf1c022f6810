import BlurredLabelKit

/// Turning option text into checked values, with messages that name the option.
enum OptionValues {
    static func number(_ text: String, option: String, range: ClosedRange<Double>) throws -> Double {
        guard let value = Double(text), value.isFinite else {
            throw UsageError(message: "\(option) needs a finite number, got '\(text)'")
        }
        guard range.contains(value) else {
            throw UsageError(message: "\(option) must be from \(format(range.lowerBound)) to \(format(range.upperBound)), got \(text)")
        }
        return value
    }

    static func integer(_ text: String, option: String, range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text) else { throw UsageError(message: "\(option) needs a whole number, got '\(text)'") }
        guard range.contains(value) else {
            throw UsageError(message: "\(option) must be from \(range.lowerBound) to \(range.upperBound), got \(text)")
        }
        return value
    }

    static func color(_ text: String, option: String) throws -> Color {
        do { return try Color(parsing: text) } catch { throw UsageError(message: "\(option): \(error)") }
    }

    /// `WxH` with both sides positive.
    static func size(_ text: String, option: String) throws -> (width: Int, height: Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
            throw UsageError(message: "\(option) needs WIDTHxHEIGHT, got '\(text)'")
        }
        guard w > 0, h > 0, w <= CanvasSize.maximumSide, h <= CanvasSize.maximumSide else {
            throw UsageError(message: "\(option) sides must be from 1 to \(CanvasSize.maximumSide), got '\(text)'")
        }
        return (w, h)
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

/// Writes an image as PNG to a path (atomically) or to standard output for `-`.
func writePNG(_ image: Image, to path: String, compressionLevel: Int = 6) throws {
    let bytes = try PNGEncoder(compressionLevel: compressionLevel).encode(image)
    try FileIO.write(bytes, to: path)
}
