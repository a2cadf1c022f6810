// The engine's public API takes and returns the lower layers' types (`Image`, `Color`, `TextStyle`,
// `Font`), so a module that imports the engine sees those layers too, as one library.
@_exported import BlurLabelCodecs
@_exported import BlurLabelPixels
@_exported import BlurLabelSystem
@_exported import BlurLabelText
