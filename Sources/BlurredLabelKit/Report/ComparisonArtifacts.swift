import FoundationEssentials

/// The pictures of one comparison, written into a report folder as `<name>-<kind>.png`.
public struct ComparisonArtifacts: Sendable {
    public let folder: URL
    public let name: String

    public init(folder: URL, name: String) { self.folder = folder; self.name = name }

    /// The path `<folder>/<name>-<kind>.png`.
    public func path(_ kind: String) -> String { folder.appendingPathComponent("\(name)-\(kind).png").path }

    /// Writes `image` as `<name>-<kind>.png` and describes it for the page.
    @discardableResult
    public func write(_ image: Image, as kind: String) throws -> ComparisonReportEntry.Picture {
        let url = folder.appendingPathComponent("\(name)-\(kind).png")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileIO.write(try PNGEncoder().encode(image), to: url.path)
        return ComparisonReportEntry.Picture(file: "\(name)-\(kind).png", width: image.width, height: image.height)
    }
}
