import BlurLabelPixels
import BlurLabelText

/// Everything about a label's look besides its text.
public struct LabelStyle: Equatable, Sendable {
    /// How the text is set: font, size, features, direction, alignment, spacing, wrapping,
    /// outline, system font fallback.
    public var typography: TextStyle
    /// The text colour.
    public var color: Color
    /// What lies behind the text: white by default, any colour, or `.transparent`.
    public var background: Color
    /// A fixed canvas size, or nil for the padded ink box.
    public var canvas: CanvasSize?
    /// The blur used when the label is blurred: σ 2.5 px by default.
    public var radius: BlurRadius
    /// Secure mode: when blurred, the label shows a decoy of this format instead of its text, so
    /// the picture carries no information about the text. nil for a plain (cosmetic) blur.
    public var secure: SecureOptions?
    /// Empty pixels added around the ink on every side beyond the blur's reach (0 by default), at
    /// most `LabelStyle.maximumPadding`.
    public var padding: Int

    /// The largest `padding`.
    package static let maximumPadding = 4096

    public init(
        typography: TextStyle = TextStyle(),
        color: Color = .black,
        background: Color = .white,
        canvas: CanvasSize? = nil,
        radius: BlurRadius = 2.5,
        secure: SecureOptions? = nil,
        padding: Int = 0
    ) {
        self.typography = typography
        self.color = color
        self.background = background
        self.canvas = canvas
        self.radius = radius
        self.secure = secure
        self.padding = padding
    }
}

extension LabelStyle {
    /// The former name of `typography`.
    @available(*, deprecated, renamed: "typography")
    public var text: TextStyle {
        get { typography }
        set { typography = newValue }
    }

    /// The former spelling of `init(typography:…)`.
    @available(*, deprecated, renamed: "init(typography:color:background:canvas:radius:secure:padding:)")
    public init(
        text: TextStyle,
        color: Color = .black,
        background: Color = .white,
        canvas: CanvasSize? = nil,
        radius: BlurRadius = 2.5,
        secure: SecureOptions? = nil,
        padding: Int = 0
    ) {
        self.init(
            typography: text,
            color: color,
            background: background,
            canvas: canvas,
            radius: radius,
            secure: secure,
            padding: padding
        )
    }
}

/// Secure mode's settings: the secret's declared format and where the decoy's digits come from.
/// The format is required: it fixes the decoy's layout, and a text longer than it is refused
/// before anything is laid out, so neither the picture nor the time taken shows the text's length.
public struct SecureOptions: Equatable, Sendable {
    /// The format at its longest.
    package var format: SecretFormat
    package var seed: DecoySeed

    public init(format: SecretFormat, seed: DecoySeed = .system) {
        self.format = format
        self.seed = seed
    }
}

/// A canvas size in pixels, both sides positive.
public struct CanvasSize: Equatable, Sendable {
    public let width: Int
    public let height: Int

    /// The largest side a canvas may have (a 16384² canvas is already 1 GiB of pixels).
    package static let maximumSide = 16_384

    public init(width: Int, height: Int) throws {
        guard width > 0, height > 0, width <= Self.maximumSide, height <= Self.maximumSide else {
            throw LabelError.badCanvas(width: width, height: height)
        }
        self.width = width
        self.height = height
    }
}

extension LabelStyle {
    /// Refuses a `padding` outside 0…`maximumPadding` (`LabelError.badPadding`).
    func checkPadding() throws {
        guard padding >= 0, padding <= Self.maximumPadding else { throw LabelError.badPadding(padding) }
    }
}

/// A label that cannot be made as asked.
public enum LabelError: Error, Equatable, CustomStringConvertible {
    case badCanvas(width: Int, height: Int)
    case badAmount(Double)
    case badSteps(Int)
    case textTooLong(limit: Int)
    case tooManyMarks(limit: Int)
    case tooManyLevelPixels(levels: Int, width: Int, height: Int, limit: Int)
    case badLevel(Int, steps: Int)
    case badPadding(Int)
    case fitWithoutCanvas
    case badFitRange(minimum: Double, maximum: Double)
    case doesNotFit(width: Int, height: Int, minimumSize: Double)
    /// The label would need more working memory than its `RenderBudget` (`megabytes` of `limit`).
    case overBudget(width: Int, height: Int, megabytes: Int, limit: Int)
    case badBudget(Int)

    public var description: String {
        switch self {
        case let .badCanvas(w, h):
            return "canvas must be from 1x1 to \(CanvasSize.maximumSide)x\(CanvasSize.maximumSide), got \(w)x\(h)"
        case let .badAmount(a): return "blur amount must be from 0 to 1, got \(a)"
        case let .badSteps(n): return "steps must be from 1 to \(Limits.maximumSteps), got \(n)"
        case let .textTooLong(limit): return "text is longer than \(limit) characters"
        case let .tooManyMarks(limit): return "text has more than \(limit) combining marks in a row (on one character)"
        case let .tooManyLevelPixels(levels, w, h, limit):
            return
                "\(levels) levels of \(w)x\(h) would hold more than \(limit) pixels in all; give fewer steps or a smaller maximum radius"
        case let .badLevel(index, steps): return "level must be from 0 to \(steps), got \(index)"
        case let .badPadding(p): return "padding must be from 0 to \(LabelStyle.maximumPadding) px, got \(p)"
        case .fitWithoutCanvas: return "fitting needs a canvas size"
        case let .badFitRange(minimum, maximum):
            return
                "fit sizes must satisfy 0 < minimum <= maximum <= \(Int(Limits.maximumFontSize)) px, got \(minimum) to \(maximum)"
        case let .overBudget(w, h, megabytes, limit):
            return
                "the label would be \(w)x\(h) px and need about \(megabytes) MB to render, over its budget of \(limit) MB"
        case let .badBudget(megabytes):
            return "the render budget must be from 1 to \(Limits.maximumRenderMegabytes) MB, got \(megabytes)"
        case let .doesNotFit(w, h, size):
            return
                "the label does not fit a \(w)x\(h) canvas even at the minimum size of \(size) px (give a larger canvas, a smaller minimum size or radius, or less padding)"
        }
    }
}
