/// A blur's size: the Gaussian's standard deviation σ in pixels, which the command line's
/// `--radius` and Core Image's `inputRadius` call a radius. From 0 (no blur) to
/// ``BlurRadius/maximum``, checked once, where the value is made: a ``LabelStyle``, a
/// ``GaussianBlur``, a redaction region or `BlurLevels` that holds one never checks it again.
///
/// A literal (`style.radius = 4`) must be in range: an out-of-range literal stops the program, as
/// an out-of-range index does. Values read at run time go through the throwing
/// ``BlurRadius/init(sigma:)``.
public struct BlurRadius: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The standard deviation in pixels.
    public let sigma: Double

    /// The largest σ accepted (`Limits.maximumRadius` names it for the command line's tables).
    public static let maximum = 1000.0

    /// No blur: an exact copy.
    package static let zero = BlurRadius(checked: 0)

    /// `sigma` as a blur radius; NaN, infinities, negative values and values over `maximum` throw
    /// ``BlurError/invalidRadius(_:)``.
    public init(sigma: Double) throws {
        guard Self.accepts(sigma) else { throw BlurError.invalidRadius(sigma) }
        self.sigma = sigma
    }

    /// A σ already known to be in range (derived from a checked one: a step of a checked maximum).
    package init(checked sigma: Double) {
        assert(Self.accepts(sigma), "blur radius \(sigma) out of range")
        self.sigma = sigma
    }

    /// Whether `sigma` is a radius: finite, from 0 to `maximum`.
    static func accepts(_ sigma: Double) -> Bool { sigma.isFinite && sigma >= 0 && sigma <= maximum }

    /// Step `index` of `steps` from 0 to this radius: σ·index/steps (in that order of operations,
    /// so levels keep their bytes).
    package func step(_ index: Int, of steps: Int) -> BlurRadius {
        BlurRadius(checked: min(max(sigma * Double(index) / Double(steps), 0), Self.maximum))
    }

    public static func < (a: BlurRadius, b: BlurRadius) -> Bool { a.sigma < b.sigma }

    public var description: String { "\(sigma)" }
}

extension BlurRadius: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    public init(floatLiteral value: Double) {
        precondition(Self.accepts(value), BlurError.invalidRadius(value).description)
        sigma = value
    }

    public init(integerLiteral value: Int) { self.init(floatLiteral: Double(value)) }
}

/// A blur that cannot be made.
public enum BlurError: Error, Equatable, CustomStringConvertible {
    /// A σ that is not a finite number from 0 to `BlurRadius.maximum`.
    case invalidRadius(Double)

    public var description: String {
        switch self {
        case let .invalidRadius(sigma):
            return "blur radius must be a finite number from 0 to \(Int(BlurRadius.maximum)), got \(sigma)"
        }
    }
}
