import BlurredLabelCore

/// A label's `--radius` (a manifest's `radius`, a URL's `radius:`): a σ in pixels, or
/// `unreadable`, the legibility floor for the label's size (`BlurRadius.unreadable(forSize:)`).
enum RadiusSetting: Equatable, Sendable {
    case sigma(BlurRadius)
    case unreadable

    /// The word that asks for the floor.
    static let unreadableName = "unreadable"

    /// The σ for a label of `size` px.
    func radius(forSize size: Double) -> BlurRadius {
        switch self {
        case let .sigma(radius): return radius
        case .unreadable: return BlurRadius.legibilityFloor(forSize: size)
        }
    }
}

extension ValueKind where T == RadiusSetting {
    /// A σ as `ValueKind.sigma` reads it, or the word `unreadable`.
    static var radiusSetting: Self {
        let sigma = ValueKind<BlurRadius>.sigma
        return ValueKind(
            placeholder: sigma.placeholder,
            accepted: {
                (sigma.accepted() ?? "") + ", or \(RadiusSetting.unreadableName): the legibility floor for --size"
            },
            parse: { given, name in
                if case .text(RadiusSetting.unreadableName) = given { return .unreadable }
                return .sigma(try sigma.parse(given, name))
            },
            show: { setting in
                switch setting {
                case let .sigma(radius): return sigma.show(radius)
                case .unreadable: return RadiusSetting.unreadableName
                }
            }
        )
    }
}
