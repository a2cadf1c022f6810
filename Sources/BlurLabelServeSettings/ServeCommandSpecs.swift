import BlurLabelCLI

/// The tables of the commands `blurlabel-serve` runs, in `blurlabel --help`'s order: `blurlabel`
/// passes `all` to `CommandLineTool.runMain(helpers:)` for its man page, completions and option
/// tables (the commands themselves run in `blurlabel-serve`). A function, not a stored list: a
/// one-label start makes none of them.
package enum ServeCommandSpecs {
    @Sendable package static func all() -> [CommandSpec] { [ServeSettings.spec, SignRequest.spec, EditSettings.spec] }
}
