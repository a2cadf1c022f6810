/// The pictures of one comparison, written into a report folder as `<name>-<kind>.png`.
public struct ComparisonArtifacts: Sendable {
    /// The report folder's path.
    public let folder: String
    public let name: String

    public init(folder: String, name: String) { self.folder = folder; self.name = name }

    /// The path `<folder>/<name>-<kind>.png`.
    public func path(_ kind: String) -> String { Folders.join(folder, "\(name)-\(kind).png") }

    /// Writes `image` as `<name>-<kind>.png` and describes it for the page.
    @discardableResult
    public func write(_ image: Image, as kind: String) throws -> ComparisonReportEntry.Picture {
        let path = path(kind)
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex { try Folders.create(String(path[..<slash])) }
        try FileIO.write(try PNGEncoder().encode(image), to: path)
        return ComparisonReportEntry.Picture(file: "\(name)-\(kind).png", width: image.width, height: image.height)
    }
}
