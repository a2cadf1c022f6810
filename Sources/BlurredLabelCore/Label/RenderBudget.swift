/// How much working memory one label's render may take, checked from the shaped text before
/// anything is drawn (`LabelCost`): a label over it is refused at once with
/// `LabelError.overBudget`, so no text and style can make a render take more. The library takes
/// it as whole MiB (`LabelPipeline(style:renderBudgetMegabytes:)`,
/// `BlurredLabel(text:style:renderBudgetMegabytes:)`); outside 1…`Limits.maximumRenderMegabytes`
/// a render throws `LabelError.badBudget`.
package struct RenderBudget: Equatable, Sendable {
    /// The budget in whole MiB, as given.
    package let megabytes: Int

    /// 64 MB (`Limits.defaultRenderMegabytes`): ample for any price tag or banner (a 1000 px
    /// price tag is estimated at 59 MB and takes 23), far below what an attacker's text asks.
    package static let standard = RenderBudget(unchecked: Limits.defaultRenderMegabytes)

    /// A budget of `megabytes` MiB, from 1 to `Limits.maximumRenderMegabytes`
    /// (`LabelError.badBudget` otherwise).
    package init(megabytes: Int) throws {
        self.init(unchecked: megabytes)
        try check()
    }

    /// A budget the first render checks (`check()`), for the library's non-throwing initialisers.
    package init(unchecked megabytes: Int) { self.megabytes = megabytes }

    /// Refuses a budget outside 1…`Limits.maximumRenderMegabytes`.
    package func check() throws {
        guard (1...Limits.maximumRenderMegabytes).contains(megabytes) else { throw LabelError.badBudget(megabytes) }
    }

    /// The bytes one render may hold at its peak.
    package var bytes: Int { min(max(megabytes, 0), Limits.maximumRenderMegabytes) << 20 }
}
