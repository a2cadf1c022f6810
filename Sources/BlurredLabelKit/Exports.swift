// BlurredLabelKit is the library: everything of BlurredLabelCore (labels, blur, text, PNG,
// redaction, comparison), re-exported, plus `BlurLevels`, the one type built on Swift Concurrency
// (an actor that makes the levels in a background task). The command-line tool links only
// BlurredLabelCore, so its binary carries neither the Concurrency runtime nor the libdispatch it
// needs on Linux (about 35 page faults of every process start: Benchmarks/README.md, "One label per process").
@_exported import BlurredLabelCore
