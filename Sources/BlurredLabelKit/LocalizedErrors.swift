import BlurredLabelCore
import FoundationEssentials

// Every error of the library is `LocalizedError`, its `errorDescription` its one-line
// description, so `error.localizedDescription` (which apps show) is the message rather than
// "The operation could not be completed". Declared here, not in BlurredLabelCore, which loads no
// Foundation (the command-line tool's start-up: docs/DESIGN.md).

extension LabelError: LocalizedError {
    public var errorDescription: String? { description }
}
extension SecureLabelError: LocalizedError {
    public var errorDescription: String? { description }
}
extension BlurError: LocalizedError {
    public var errorDescription: String? { description }
}
extension RedactionError: LocalizedError {
    public var errorDescription: String? { description }
}
extension TextError: LocalizedError {
    public var errorDescription: String? { description }
}
extension FontError: LocalizedError {
    public var errorDescription: String? { description }
}
extension FileError: LocalizedError {
    public var errorDescription: String? { description }
}
extension ColorError: LocalizedError {
    public var errorDescription: String? { description }
}
extension PNGError: LocalizedError {
    public var errorDescription: String? { description }
}
extension ImageError: LocalizedError {
    public var errorDescription: String? { description }
}
extension ImageComparison.SizeMismatch: LocalizedError {
    package var errorDescription: String? { description }
}
extension ImageComparison.InvalidSettings: LocalizedError {
    package var errorDescription: String? { description }
}
extension DiffPictureTooLarge: LocalizedError {
    package var errorDescription: String? { description }
}
extension ComparisonReport.ReportError: LocalizedError {
    package var errorDescription: String? { description }
}
extension EncodeError: LocalizedError {
    package var errorDescription: String? { description }
}
