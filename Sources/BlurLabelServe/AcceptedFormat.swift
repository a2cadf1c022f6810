import BlurredLabelCore

/// The format a label URL without an extension (or with `.auto`) is answered in, from the
/// request's `Accept` header: AVIF where the client names `image/avif`, else WebP where it names
/// `image/webp`, else PNG, which every client reads (imgproxy's order). Only those three
/// outcomes leave here, so a client that varies `Accept` can make at most three cache entries of
/// a label, never one per header it invents (`Accept` is not signed). A wildcard (`image/*`,
/// `*/*`) names neither: browsers that decode AVIF or WebP list them. A type given `q=0` is
/// refused by the client and not chosen; anything unparsable counts for nothing, so junk gets PNG.
enum AcceptedFormat {
    /// The variant for `accept` (nil: no header), at the format's default quality.
    static func choose(_ accept: String?) -> PictureFormat {
        guard let accept, accept.utf8.count <= 4096 else { return .png }
        var avif = false
        var webp = false
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";")
            guard let type = parts.first.map(trimmed)?.lowercased() else { continue }
            let refused = parts.dropFirst().contains { parameter in
                let pair = parameter.split(separator: "=", maxSplits: 1).map(trimmed)
                guard pair.count == 2, pair[0].lowercased() == "q", let q = Double(pair[1]) else { return false }
                return q <= 0
            }
            if refused { continue }
            if type == "image/avif" { avif = true }
            if type == "image/webp" { webp = true }
        }
        return avif ? .avif() : webp ? .webp() : .png
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
