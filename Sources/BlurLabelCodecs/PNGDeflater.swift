/// How a PNG writer compresses its filtered rows, chosen with the writer by `EncodingPlan`.
enum PNGDeflater: Equatable, Sendable {
    /// `RunDeflate`: runs of the byte before only, each block's own Huffman tables; the fastest.
    /// `WholePNGWriter` tries libdeflate's level 1 as well where runs shrink a picture little.
    case runs
    /// libdeflate at this level (1–9), the filtered rows in one call.
    case libdeflate(level: Int32)
}
