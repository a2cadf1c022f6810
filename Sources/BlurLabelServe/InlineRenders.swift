import BlurredLabelCore
import Synchronization

/// Which renders a connection's thread does itself instead of handing them to a worker: the
/// hand-over (a worker woken, the connection suspended and resumed through libmicrohttpd's
/// wake-up channel and epoll) costs more than a price tag's render saves by moving. A label is
/// small when the last render of its shape (its options: every price of one shape shares them)
/// took under `limitSeconds` (2 ms in `serve`) for a text at least as long; a shape not rendered yet, or slow the last
/// time, goes to a worker, which measures it. A connection's thread therefore stops answering
/// its other connections for at most about `limitSeconds` a render. Which thread renders never
/// changes a byte of the picture.
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

    /// The shape of a canonical label path (`LabelPath.canonical`): everything before the text.
    static func shape(_ canonical: String) -> Substring {
        canonical[..<(canonical.lastIndex(of: "/") ?? canonical.startIndex)]
    }

    /// Whether a label of `shape` with `textBytes` of text is small enough for a connection's thread.
    func isSmall(_ shape: Substring, textBytes: Int) -> Bool {
        last.withLock { last in
            guard let measure = last[String(shape)] else { return false }
            return measure.seconds < limitSeconds && textBytes <= measure.textBytes
        }
    }

    /// Records a render of `shape`.
    func record(_ shape: Substring, textBytes: Int, seconds: Double) {
        last.withLock { last in
            if last[String(shape)] == nil && last.count >= Self.shapeLimit { last.removeAll(keepingCapacity: true) }
            last[String(shape)] = Measure(seconds: seconds, textBytes: textBytes)
        }
    }
}
