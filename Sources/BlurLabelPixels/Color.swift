/// A colour with straight (not premultiplied) alpha, 8 bits a channel.
public struct Color: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let white = Color(red: 255, green: 255, blue: 255)
    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let transparent = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// Parses `#RGB`, `#RGBA`, `#RRGGBB`, `#RRGGBBAA`, a CSS colour name, or `transparent`.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingWhitespace().lowercased()
        if trimmed == "transparent" {
            self = .transparent
            return
        }
        if let rgb = cssColorNames[trimmed] {
            self.init(red: UInt8(rgb >> 16), green: UInt8((rgb >> 8) & 0xFF), blue: UInt8(rgb & 0xFF))
            return
        }
        guard trimmed.hasPrefix("#") else { throw ColorError.unknownName(text) }
        let digits = Array(trimmed.dropFirst())
        guard digits.allSatisfy(\.isHexDigit) else { throw ColorError.badHex(text) }
        let values = digits.map { UInt8($0.hexDigitValue!) }
        switch values.count {
        case 3, 4:
            let c = values.map { $0 * 17 }
            self.init(red: c[0], green: c[1], blue: c[2], alpha: c.count == 4 ? c[3] : 255)
        case 6, 8:
            let c = stride(from: 0, to: values.count, by: 2).map { values[$0] << 4 | values[$0 + 1] }
            self.init(red: c[0], green: c[1], blue: c[2], alpha: c.count == 4 ? c[3] : 255)
        default:
            throw ColorError.badHex(text)
        }
    }

    /// The colour as premultiplied RGBA bytes, rounded to nearest.
    package var premultiplied: (UInt8, UInt8, UInt8, UInt8) {
        (premultiply(red, alpha), premultiply(green, alpha), premultiply(blue, alpha), alpha)
    }

    /// `#RRGGBB` or `#RRGGBBAA` when not opaque.
    public var description: String {
        func hex(_ v: UInt8) -> String {
            let s = String(v, radix: 16)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + hex(red) + hex(green) + hex(blue) + (alpha == 255 ? "" : hex(alpha))
    }
}

/// `round(value * alpha / 255)`, exactly, in integers.
@inline(__always)
func premultiply(_ value: UInt8, _ alpha: UInt8) -> UInt8 {
    let t = UInt32(value) * UInt32(alpha) + 128
    return UInt8((t + (t >> 8)) >> 8)
}

/// The straight value whose premultiplication by `alpha` gives back `value` (alpha > 0).
@inline(__always)
package func unpremultiply(_ value: UInt8, _ alpha: UInt8) -> UInt8 {
    let a = UInt32(alpha)
    return UInt8(min(255, (UInt32(value) * 255 + a / 2) / a))
}

/// Why a colour did not parse.
public enum ColorError: Error, Equatable, CustomStringConvertible {
    case unknownName(String)
    case badHex(String)

    public var description: String {
        switch self {
        case let .unknownName(text):
            return "unknown colour '\(text)': use #RGB, #RRGGBB, #RRGGBBAA, a CSS colour name or 'transparent'"
        case let .badHex(text):
            return "bad hex colour '\(text)': use #RGB, #RGBA, #RRGGBB or #RRGGBBAA"
        }
    }
}
