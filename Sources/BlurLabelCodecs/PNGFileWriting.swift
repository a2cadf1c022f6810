import BlurLabelPixels
import BlurLabelSystem

extension PNGEncoder {
    /// Writes `image` as a PNG file at `path`, by the command line's output rules: a new or
    /// existing regular file is written to a temporary file in its folder and renamed into place,
    /// so a failure never leaves a half-written file nor damages the one there (which keeps its
    /// permissions and, where the process may, its owner); a symbolic link is followed to the
    /// file it names; a device or FIFO (`/dev/null`, `/dev/stdout`) is written into; `-` is
    /// standard output. Throws `PNGError` when the image cannot be encoded, `FileError` when the
    /// file cannot be written.
    ///
    /// ```swift
    /// try PNGEncoder().write(try label.image, to: "price.png")
    /// ```
    public func write(_ image: Image, to path: String) throws {
        try FileIO.write(try encode(image), to: path)
    }
}
