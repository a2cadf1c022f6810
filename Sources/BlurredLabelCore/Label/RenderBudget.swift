/// How much working memory one label's render may take, checked from the shaped text before
/// anything is drawn (`LabelCost`): a label over it is refused at once with
/// `LabelError.overBudget`, so no text and style can make a render take more.
public struct RenderBudget: Equatable, Sendable {
    /// The bytes one render may hold at its peak.
    public let bytes: Int

    /// 64 MB (`Limits.defaultRenderMegabytes`): ample for any price tag or banner (a 2000×1000
    /// label takes about 25 MB), far below what an attacker's text would ask.
    public static let standard = RenderBudget(exactly: Limits.defaultRenderMegabytes)

    /// A budget of `megabytes` MiB, from 1 to `Limits.maximumRenderMegabytes`
    /// (`LabelError.badBudget` otherwise).
    public init(megabytes: Int) throws {
        guard (1...Limits.maximumRenderMegabytes).contains(megabytes) else { throw LabelError.badBudget(megabytes) }
        self.init(exactly: megabytes)
    }

    private init(exactly megabytes: Int) { bytes = megabytes << 20 }

    /// The budget in whole MiB, as given.
    package var megabytes: Int { bytes >> 20 }
}
