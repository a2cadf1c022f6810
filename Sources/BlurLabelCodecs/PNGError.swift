/// Why a PNG could not be read or written. `source` names the file (or "<memory>", "<stdin>").
public enum PNGError: Error, Equatable, CustomStringConvertible {
    case notPNG(source: String)
    case corrupt(source: String, reason: String)
    case truncated(source: String)
    case tooLarge(source: String, width: Int, height: Int, limit: Int)
    case outOfMemory(source: String)
    case encodeFailed(reason: String)

    public var description: String {
        switch self {
        case let .notPNG(source): return "\(source): not a PNG file (bad signature)"
        case let .corrupt(source, reason): return "\(source): corrupt PNG: \(reason)"
        case let .truncated(source): return "\(source): truncated PNG (the file ends before the image does)"
        case let .tooLarge(source, width, height, limit):
            return
                "\(source): image is \(width)x\(height) = \(width * height) pixels, over the limit of \(limit) (the decoder's maxPixels)"
        case let .outOfMemory(source): return "\(source): out of memory while decoding"
        case let .encodeFailed(reason): return "PNG encoding failed: \(reason)"
        }
    }
}
