import BlurLabelCodecs
import BlurLabelPixels
import BlurLabelSystem

/// The pictures of one comparison, written into a report folder as `<stem>-<kind>.png`.
package struct ComparisonArtifacts: Sendable {
    /// The report folder's path.
    package let folder: String
    /// The report entry's name.
    package let name: String
    /// What the pictures' file names start with (the entry's name unless told otherwise).
    package let stem: String

    package init(folder: String, name: String, stem: String? = nil) {
        self.folder = folder
        self.name = name
        self.stem = stem ?? name
    }

    /// The path `<folder>/<stem>-<kind>.png`.
    package func path(_ kind: String) -> String { Folders.join(folder, "\(stem)-\(kind).png") }

    /// Writes `image` as `<name>-<kind>.png` and describes it for the page.
    @discardableResult
    package func write(_ image: Image, as kind: String) throws -> ComparisonReportEntry.Picture {
        let path = path(kind)
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex { try Folders.create(String(path[..<slash])) }
        // A link planted in the folder is refused.
        try FileIO.write(try PNGEncoder().encode(image), to: path, followingLinks: false)
        return ComparisonReportEntry.Picture(file: "\(stem)-\(kind).png", width: image.width, height: image.height)
    }
}
