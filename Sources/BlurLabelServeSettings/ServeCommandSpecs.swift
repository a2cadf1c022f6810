import BlurLabelCLI

/// The tables of the commands `blurlabel-serve` runs, in `blurlabel --help`'s order: `blurlabel`
/// passes them to `CommandLineTool.runMain(helpers:)` for its man page, completions and option
/// tables (the commands themselves run in `blurlabel-serve`).
package enum ServeCommandSpecs {
    package static let all: CommandLineTool.HelperSpecs = { [ServeSettings.spec, SignRequest.spec, EditSettings.spec] }
}
