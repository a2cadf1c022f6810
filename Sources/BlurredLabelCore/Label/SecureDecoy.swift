import BlurLabelSystem

/// The declared shape of a secret, such as a price: `#` marks a digit, everything else is
/// literal. Written at its longest (`##.## €` for prices up to 99.99 €), so every secret of the
/// format gets the same decoy layout.
public struct SecretFormat: Equatable, Sendable, CustomStringConvertible {
    package let template: String

    public init(_ template: String) throws {
        guard template.contains("#") else { throw SecureLabelError.formatWithoutDigits(template) }
        self.template = template
    }

    /// Refuses a text longer than the format, in Unicode scalars, without reading past the
    /// format's length: the time taken and the message depend on the format, never on how long the
    /// text is. The text is not laid out or otherwise looked at.
    package func check(_ text: String) throws {
        let allowed = template.unicodeScalars.count
        guard text.unicodeScalars.dropFirst(allowed).isEmpty else { throw SecureLabelError.textLongerThanFormat }
    }

    public var description: String { template }

    /// The template with each `#` replaced by a digit from `random`. (In a ThreadSanitizer build,
    /// pass a generator with storage, not a bare `SystemRandomNumberGenerator`: see `SecureRandom`.)
    package func decoy<G: RandomNumberGenerator>(using random: inout G) -> String {
        String(template.map { $0 == "#" ? Character(String(Int.random(in: 0...9, using: &random))) : $0 })
    }
}

/// How secure mode picks its decoy digits: from a seed (reproducible) or from the system's
/// cryptographically secure generator.
public enum DecoySeed: Equatable, Sendable {
    case seed(UInt64)
    case system

    func decoy(for format: SecretFormat) -> String {
        switch self {
        case let .seed(value):
            var generator = SplitMix64(state: value)
            return format.decoy(using: &generator)
        case .system:
            var generator = SecureRandom()
            return format.decoy(using: &generator)
        }
    }
}

/// The system's cryptographically secure generator (`SystemRandomNumberGenerator`), given one
/// word of storage. The bare generator is an empty struct, and Swift passes an empty `inout`
/// value at an undefined address; a `--sanitize=thread` build reports every `inout` access in
/// generic code (`decoy(using:)`) to TSan with that address, and the TSan runtime crashed on it
/// (SEGV in `SecretFormat.decoy`; swiftlang/swift#66099, still open in Swift 6.3). With a stored
/// word the value has a real address. The numbers are the system generator's, unchanged.
struct SecureRandom: RandomNumberGenerator {
    private var system = SystemRandomNumberGenerator()
    private var draws: UInt64 = 0

    mutating func next() -> UInt64 {
        draws &+= 1
        return system.next()
    }
}

/// A small, well-known deterministic generator (Steele, Lea and Flood's SplitMix64) for seeded decoys.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    package var state: UInt64
    package init(state: UInt64) { self.state = state }
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Secure-mode problems.
public enum SecureLabelError: Error, Equatable, CustomStringConvertible {
    case formatWithoutDigits(String)
    /// The text has more characters than its format; the message says nothing about either size.
    case textLongerThanFormat
    /// A secure label blurred less than the legibility floor for its size (`BlurRadius.unreadable(forSize:)`):
    /// its decoy would read as a crisp, believable wrong value.
    case radiusBelowFloor(radius: Double, floor: Double, size: Double)

    public var description: String {
        switch self {
        case let .formatWithoutDigits(t): return "secret format '\(t)' has no digit placeholder (#), e.g. '##.## €'"
        case .textLongerThanFormat:
            return "the text is longer than its secure format; give the format at the secret's longest form"
        case let .radiusBelowFloor(radius, floor, size):
            return
                "a secure label of "
                + cFormat(
                    "%g px needs a blur of at least %g, the legibility floor (radius unreadable), got %g",
                    size,
                    floor,
                    radius
                )
        }
    }
}
