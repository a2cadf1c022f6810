import BlurLabelServeSettings
import BlurLabelSystem
import BlurredLabelCore

/// A private (0600) HTML file that sends the browser on to a URL, for `edit --open`: the browser
/// is given the file's path, and the URL with its token stays out of every process's arguments.
/// Made in `$XDG_RUNTIME_DIR` (the user's own folder) when there is one, else `$TMPDIR` or `/tmp`.
struct BrowserHandoff: Sendable {
    let path: String

    /// Where the file is made.
    static var folder: String {
        [getenv("XDG_RUNTIME_DIR"), getenv("TMPDIR")].compactMap { $0.map { String(cString: $0) } }
            .first { !$0.isEmpty && Folders.isFolder($0) } ?? "/tmp"
    }

    init(redirectingTo url: String) throws {
        let folder = Self.folder
        var template = Array((folder + "/blurlabel-edit-XXXXXX.html").utf8CString)
        // mkstemps makes the file with mode 0600 and O_EXCL: no one else can have it or read it.
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 5) }
        guard fd >= 0 else {
            throw URLLabelOptions.Failure("cannot make a page for the browser in \(folder): \(systemErrorText())")
        }
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let link = htmlEscaped(url)
        let html = """
            <!doctype html>
            <meta charset="utf-8">
            <meta name="referrer" content="no-referrer">
            <meta http-equiv="refresh" content="0;url=\(link)">
            <title>blurlabel edit</title>
            <a href="\(link)">Open blurlabel edit</a>

            """
        do {
            try FileIO.writeAll(Array(html.utf8), to: fd, path: path)
            close(fd)
        } catch {
            close(fd)
            unlink(path)
            throw error
        }
    }

    /// Removes the file (once the page has loaded, or at exit).
    func remove() { unlink(path) }
}
