import BlurredLabelCore
import Synchronization

/// Which renders a connection's thread does itself instead of handing them to a worker: the
/// hand-over (a worker woken, the connection suspended and resumed through libmicrohttpd's
/// wake-up channel and epoll) costs more than a price tag's render saves by moving. A label is
/// small when the last render of its shape (its options and format: every price of one shape
/// shares them) took under `limitSeconds` (2 ms in `serve`) for a text at least as long; a shape
/// not rendered yet, or slow the last time, goes to a worker, which measures it. A connection's
/// thread therefore stops answering its other connections for at most about `limitSeconds` a
/// render. Which thread renders never changes a byte of the picture.
final class InlineRenders: Sendable {
    /// A render of this shape took `seconds` for a text of `textBytes` UTF-8 bytes.
    struct Measure {
        var seconds: Double
        var textBytes: Int
    }

    /// Longest render a connection's thread takes on: `serve`'s.
    static let standardLimitSeconds = 0.002
    let limitSeconds: Double
    /// Shapes remembered; the table is emptied when full (a shop has a few dozen).
    static let shapeLimit = 1024

    private let last = LockedValue<[String: Measure]>([:])
    /// Renders done on a connection's thread so far (for tests).
    let taken = Atomic<Int>(0)

    init(limitSeconds: Double = standardLimitSeconds) { self.limitSeconds = limitSeconds }

    /// The shape of a label's key (`LabelPath.canonical`, or what keys its render): the key
    /// without its text (the base64url or `enc:` segment), so its options and its format stay
    /// (a WebP or an AVIF of the same options is another shape: their encoders cost more).
    static func shape(_ key: String) -> String {
        let bytes = key.utf8
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return key }
        let textStart = bytes.index(after: slash)
        let textEnd = bytes[textStart...].firstIndex { !isTextByte($0) } ?? bytes.endIndex
        return String(key[..<textStart]) + String(key[textEnd...])
    }

    /// A byte of a text segment: base64url's alphabet and `enc:`'s colon.
    private static func isTextByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: ":"):
            return true
        default: return false
        }
    }

    /// Whether a label of `shape` with `textBytes` of text is small enough for a connection's thread.
    func isSmall(_ shape: String, textBytes: Int) -> Bool {
        last.withLock { last in
            guard let measure = last[shape] else { return false }
            return measure.seconds < limitSeconds && textBytes <= measure.textBytes
        }
    }

    /// Records a render of `shape`.
    func record(_ shape: String, textBytes: Int, seconds: Double) {
        last.withLock { last in
            if last[shape] == nil && last.count >= Self.shapeLimit { last.removeAll(keepingCapacity: true) }
            last[shape] = Measure(seconds: seconds, textBytes: textBytes)
        }
    }
}
