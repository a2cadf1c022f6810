/// A fast deflate encoder for filtered PNG rows: the only matches it looks for are runs of the
/// byte before (distance 1, as zlib's Z_RLE strategy), coded with dynamic Huffman tables made for
/// each block (at most `blockBytes` input bytes; a block costing more than stored bytes is stored
/// instead). Blurred pictures, Paeth-filtered, are mostly runs of zeros and small residuals, where
/// looking for longer matches (libdeflate, zlib) costs time and finds little. The output depends
/// only on the input bytes and where the blocks start.
///
/// A raw deflate stream (RFC 1951, no zlib header or checksum), made a block at a time, so the
/// data need not exist whole: `init(out:)`, one `append` per block (the last with `final`), then
/// `finish()`. `RunDeflate` wraps it in zlib's framing.
package struct RunDeflateEncoder {
    /// Input bytes a block covers at most.
    package static let blockBytes = 256 * 1024

    /// The most bytes a stream of `count` input bytes in `blocks` blocks takes: stored, a block
    /// costs its bytes and 5 more a piece of 65,535 or less (header bits, padding, lengths); a
    /// Huffman block is written only if under its stored estimate (4 more a piece and one more
    /// piece, 10 bits). Then the 8 bytes the bit writer may store past its end.
    package static func bound(count: Int, blocks: Int) -> Int {
        count + 5 * (count / 65535) + 10 * blocks + 16
    }

    private var writer: BitWriter
    private let start: UnsafeMutablePointer<UInt8>
    /// The last byte of the block before, if one came before.
    private var previous: UInt8?

    /// A stream written at `out` (at least `bound` bytes).
    package init(out: UnsafeMutablePointer<UInt8>) {
        writer = BitWriter(out: out)
        start = out
    }

    /// One block of `count` bytes at `input` (at most `blockBytes`); `tokens` is scratch for
    /// `blockBytes` entries.
    package mutating func append(
        _ input: UnsafePointer<UInt8>,
        count: Int,
        final: Bool,
        tokens: UnsafeMutablePointer<UInt16>
    ) {
        precondition(count <= Self.blockBytes)
        withUnsafeTemporaryAllocation(byteCount: BlockTables.bytes, alignment: 16) { raw in
            let tables = BlockTables(raw.baseAddress!)
            tables.counts.initialize(repeating: 0, count: Huffman.literalLengthSymbols)
            let tokenCount = Self.tokenize(
                input,
                count: count,
                previous: previous,
                tokens: tokens,
                counts: tables.counts
            )
            writeBlock(tokens: tokens, tokenCount: tokenCount, tables: tables, input: input, count: count, final: final)
        }
        if count > 0 { previous = input[count - 1] }
    }

    /// The bytes written since `init` (the last bits padded to a byte).
    package mutating func finish() -> Int {
        writer.alignToByte()
        return writer.out - start
    }

    // MARK: - tokens

    /// A token is a literal byte (below 256) or a run of the byte before: 256 + its length (3–258).
    private static let runBase: UInt16 = 256

    /// The tokens of the `count` bytes at `input`, the byte before them `previous`; counts the
    /// symbols they use. Greedy: a run wherever at least 3 bytes repeat the byte before, else a
    /// literal. Eight bytes are read at a time, and the first six of them are literals together
    /// when no run starts among them.
    private static func tokenize(
        _ input: UnsafePointer<UInt8>,
        count: Int,
        previous: UInt8?,
        tokens: UnsafeMutablePointer<UInt16>,
        counts: UnsafeMutablePointer<UInt32>
    ) -> Int {
        var i = 0
        var n = 0
        if previous == nil && count > 0 {
            tokens[0] = UInt16(input[0])
            counts[Int(input[0])] += 1
            i = 1
            n = 1
        }
        let first = previous ?? 0
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        while i < count {
            let before = i > 0 ? input[i &- 1] : first
            if i &+ 8 <= count {
                // Byte k of `same` is 0x80 where input[i + k] equals the byte before it.
                let word = UInt64(littleEndian: UnsafeRawPointer(input + i).loadUnaligned(as: UInt64.self))
                let shifted = word &<< 8 | UInt64(before)
                let difference = word ^ shifted
                let same = ~(((difference & low7) &+ low7) | difference | low7)
                // Where a run of at least 3 starts: that byte and the two after it repeat.
                let starts = same & (same &>> 8) & (same &>> 16) & 0x0000_8080_8080_8080
                // The eight bytes as tokens in one store (those past the literals are written
                // again later).
                let wide = SIMD8<UInt16>(truncatingIfNeeded: unsafeBitCast(word, to: SIMD8<UInt8>.self))
                UnsafeMutableRawPointer(tokens + n).storeBytes(of: wide, as: SIMD8<UInt16>.self)
                if starts == 0 {
                    for k in 0..<6 { counts[Int(truncatingIfNeeded: (word &>> UInt64(8 &* k)) & 0xFF)] &+= 1 }
                    n &+= 6
                    i &+= 6
                    continue
                }
                let literals = starts.trailingZeroBitCount &>> 3
                for k in 0..<literals { counts[Int(truncatingIfNeeded: (word &>> UInt64(8 &* k)) & 0xFF)] &+= 1 }
                let runByte = literals == 0 ? before : input[i &+ literals &- 1]
                n &+= literals
                i &+= literals
                let length = runLength(input + i, limit: min(count &- i, 258), of: runByte)
                tokens[n] = runBase &+ UInt16(length)
                n &+= 1
                counts[257 &+ LengthCode(length).index] &+= 1
                i &+= length
                continue
            }
            if input[i] == before {
                let length = runLength(input + i, limit: min(count &- i, 258), of: before)
                if length >= 3 {
                    tokens[n] = runBase &+ UInt16(length)
                    n &+= 1
                    counts[257 &+ LengthCode(length).index] &+= 1
                    i &+= length
                    continue
                }
            }
            tokens[n] = UInt16(input[i])
            n &+= 1
            counts[Int(input[i])] &+= 1
            i &+= 1
        }
        return n
    }

    /// How many of the (at most `limit`) bytes at `bytes` are `byte`, from the first on.
    @inline(__always)
    private static func runLength(_ bytes: UnsafePointer<UInt8>, limit: Int, of byte: UInt8) -> Int {
        var length = 0
        let pattern = 0x0101_0101_0101_0101 &* UInt64(byte)
        while length &+ 8 <= limit {
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes + length).loadUnaligned(as: UInt64.self)) ^ pattern
            if word != 0 { return length &+ (word.trailingZeroBitCount &>> 3) }
            length &+= 8
        }
        while length < limit && bytes[length] == byte { length &+= 1 }
        return length
    }

    // MARK: - blocks

    /// The order in which a block's header gives the code-length code's lengths (RFC 1951 3.2.7).
    private static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// One block of `tokens` (made from `count` bytes at `input`, their symbols counted in
    /// `tables.counts`): dynamic Huffman, or stored if that is smaller.
    private mutating func writeBlock(
        tokens: UnsafeMutablePointer<UInt16>,
        tokenCount: Int,
        tables: BlockTables,
        input: UnsafePointer<UInt8>,
        count: Int,
        final: Bool
    ) {
        let counts = tables.counts
        let lengths = tables.lengths
        counts[Huffman.endOfBlock] = 1
        Huffman.codeLengths(
            counts,
            count: Huffman.literalLengthSymbols,
            limit: Huffman.maximumCodeLength,
            into: lengths,
            scratch: tables.huffman
        )
        let codes = tables.codes
        Huffman.canonicalCodes(lengths, count: Huffman.literalLengthSymbols, into: codes)
        var literalCount = Huffman.literalLengthSymbols
        while literalCount > 257 && lengths[literalCount - 1] == 0 { literalCount -= 1 }
        // Two distance codes of one bit each (a complete code); runs use code 0, distance 1.
        lengths[literalCount] = 1
        lengths[literalCount + 1] = 1
        let total = literalCount + 2

        // The code lengths, run-length coded (16: repeat 3-6, 17: 3-10 zeros, 18: 11-138 zeros).
        let symbols = tables.symbols
        let extras = tables.extras
        var symbolCount = 0
        func emit(_ symbol: UInt8, _ extra: Int) {
            symbols[symbolCount] = symbol
            extras[symbolCount] = UInt8(extra)
            symbolCount += 1
        }
        var i = 0
        while i < total {
            let value = lengths[i]
            var run = 1
            while i + run < total && lengths[i + run] == value { run += 1 }
            i += run
            if value == 0 {
                while run >= 11 {
                    let piece = min(run, 138)
                    emit(18, piece - 11)
                    run -= piece
                }
                if run >= 3 {
                    emit(17, run - 3)
                    run = 0
                }
            } else {
                emit(value, 0)
                run -= 1
                while run >= 3 {
                    let piece = min(run, 6)
                    emit(16, piece - 3)
                    run -= piece
                }
            }
            while run > 0 {
                emit(value, 0)
                run -= 1
            }
        }
        let codeLengthCounts = tables.codeLengthCounts
        codeLengthCounts.initialize(repeating: 0, count: 19)
        for k in 0..<symbolCount { codeLengthCounts[Int(symbols[k])] += 1 }
        let codeLengthLengths = tables.codeLengthLengths
        Huffman.codeLengths(codeLengthCounts, count: 19, limit: 7, into: codeLengthLengths, scratch: tables.huffman)
        let codeLengthCodes = tables.codeLengthCodes
        Huffman.canonicalCodes(codeLengthLengths, count: 19, into: codeLengthCodes)
        var codeLengthCount = 19
        while codeLengthCount > 4 && codeLengthLengths[Self.codeLengthOrder[codeLengthCount - 1]] == 0 {
            codeLengthCount -= 1
        }

        // The block's size in bits, to choose between it and stored bytes.
        var size = UInt64(3 + 5 + 5 + 4 + 3 * codeLengthCount)
        for k in 0..<symbolCount {
            let symbol = symbols[k]
            size += UInt64(codeLengthLengths[Int(symbol)]) + Self.repeatExtraBits(symbol)
        }
        for s in 0..<257 { size += UInt64(counts[s]) * UInt64(lengths[s]) }
        for s in 257..<Huffman.literalLengthSymbols where counts[s] > 0 {
            size += UInt64(counts[s]) * UInt64(Int(lengths[s]) + LengthCode.extraBits(index: s - 257) + 1)
        }
        // Stored: a 3-bit header, up to 7 bits of padding and 4 bytes of lengths per 65,535 bytes.
        let stored = UInt64(count + 4 * ((count + 65534) / 65535 + 1)) * 8 + 10
        if size >= stored {
            writer.writeStored(input, count: count, final: final)
            return
        }

        writer.put(final ? 1 : 0, 1)
        writer.put(2, 2)
        writer.put(UInt64(literalCount - 257), 5)
        writer.put(1, 5)
        writer.put(UInt64(codeLengthCount - 4), 4)
        for k in 0..<codeLengthCount { writer.put(UInt64(codeLengthLengths[Self.codeLengthOrder[k]]), 3) }
        for k in 0..<symbolCount {
            let s = Int(symbols[k])
            writer.put(UInt64(codeLengthCodes[s]), Int(codeLengthLengths[s]))
            let extra = Self.repeatExtraBits(symbols[k])
            if extra > 0 { writer.put(UInt64(extras[k]), Int(extra)) }
        }
        writeTokens(tokens, count: tokenCount, codes: codes, lengths: lengths, table: tables.tokenCodes)
        writer.put(UInt64(codes[Huffman.endOfBlock]), Int(lengths[Huffman.endOfBlock]))
    }

    /// The block's tokens in its codes: first each token's bits and their number, a table of
    /// 256 literals and 256 run lengths (a run's length code, its extra bits and the distance
    /// code's one 0 bit: at most 15 + 5 + 1 bits), then one lookup and one write a token.
    private mutating func writeTokens(
        _ tokens: UnsafeMutablePointer<UInt16>,
        count: Int,
        codes: UnsafeMutablePointer<UInt16>,
        lengths: UnsafeMutablePointer<UInt8>,
        table: UnsafeMutablePointer<UInt32>
    ) {
        for s in 0..<256 { table[s] = UInt32(codes[s]) | UInt32(lengths[s]) &<< 24 }
        for run in 3...258 {
            let lengthCode = LengthCode(run)
            let symbol = 257 &+ lengthCode.index
            let bits = Int(lengths[symbol])
            guard bits > 0 else { continue }
            table[256 &+ run] =
                (UInt32(codes[symbol]) | UInt32(lengthCode.extra) &<< UInt32(bits))
                | UInt32(bits &+ lengthCode.extraBits &+ 1) &<< 24
        }
        var w = writer
        for k in 0..<count {
            let entry = table[Int(tokens[k])]
            w.put(UInt64(entry & 0xFF_FFFF), Int(entry &>> 24))
        }
        writer = w
    }

    /// Extra bits after a code-length symbol: 2 for 16, 3 for 17, 7 for 18.
    private static func repeatExtraBits(_ symbol: UInt8) -> UInt64 {
        switch symbol {
        case 16: 2
        case 17: 3
        case 18: 7
        default: 0
        }
    }
}

/// A block's tables, carved from one temporary allocation (`bytes`): its symbol counts, code
/// lengths and codes, the code-length code's, each token's bits, and the Huffman construction's
/// scratch.
private struct BlockTables {
    static let symbols = Huffman.literalLengthSymbols
    /// Code-length symbols a block may need: one a length at most (lengths and the two distance codes).
    static let codeLengthSymbols = symbols + 2
    /// Token values: literals, then 256 + a run's length (at most 258).
    static let tokenValues = 256 + 259 + 1
    static let bytes =
        Huffman.Scratch.bytes(symbols: symbols) + symbols * 4 + tokenValues * 4 + 19 * 4 + symbols * 2 + 19 * 2
        + 19 + (symbols + 2) + 2 * codeLengthSymbols

    let counts: UnsafeMutablePointer<UInt32>
    let codes: UnsafeMutablePointer<UInt16>
    let tokenCodes: UnsafeMutablePointer<UInt32>
    let huffman: Huffman.Scratch
    let codeLengthCounts: UnsafeMutablePointer<UInt32>
    let codeLengthCodes: UnsafeMutablePointer<UInt16>
    let codeLengthLengths: UnsafeMutablePointer<UInt8>
    let lengths: UnsafeMutablePointer<UInt8>
    let symbols: UnsafeMutablePointer<UInt8>
    let extras: UnsafeMutablePointer<UInt8>

    init(_ raw: UnsafeMutableRawPointer) {
        // Widest first, so that each stays aligned.
        huffman = Huffman.Scratch(raw, symbols: Self.symbols)
        var memory = Carving(at: raw + Huffman.Scratch.bytes(symbols: Self.symbols))
        counts = memory.take(UInt32.self, Self.symbols)
        tokenCodes = memory.take(UInt32.self, Self.tokenValues)
        codeLengthCounts = memory.take(UInt32.self, 19)
        codes = memory.take(UInt16.self, Self.symbols)
        codeLengthCodes = memory.take(UInt16.self, 19)
        codeLengthLengths = memory.take(UInt8.self, 19)
        lengths = memory.take(UInt8.self, Self.symbols + 2)
        symbols = memory.take(UInt8.self, Self.codeLengthSymbols)
        extras = memory.take(UInt8.self, Self.codeLengthSymbols)
    }
}

/// Typed arrays taken one after another from raw memory (taken widest first, each stays aligned).
private struct Carving {
    var at: UnsafeMutableRawPointer

    mutating func take<T>(_: T.Type, _ count: Int) -> UnsafeMutablePointer<T> {
        let pointer = at.bindMemory(to: T.self, capacity: count)
        at += count * MemoryLayout<T>.stride
        return pointer
    }
}

/// A run's length (3–258) as deflate codes it: the length code's index (0–28, symbol 257 + index),
/// its extra bits and their value.
private struct LengthCode {
    let index: Int
    let extraBits: Int
    let extra: Int

    @inline(__always)
    init(_ length: Int) {
        let v = length &- 3
        if length == 258 {
            (index, extraBits, extra) = (28, 0, 0)
        } else if v < 8 {
            (index, extraBits, extra) = (v, 0, 0)
        } else {
            // Four codes for each count of extra bits e ≥ 1, covering v in [4·2^e, 8·2^e).
            let e = (Int.bitWidth &- 1 &- v.leadingZeroBitCount) &- 2
            index = 4 &* e &+ 4 &+ ((v &>> e) & 3)
            extraBits = e
            extra = v & ((1 &<< e) &- 1)
        }
    }

    /// The extra bits of length code `index`.
    static func extraBits(index: Int) -> Int {
        index < 8 || index == 28 ? 0 : (index - 4) / 4
    }
}

/// Bits written least significant first, 32 at a time (8 bytes stored, 4 kept).
private struct BitWriter {
    var bits: UInt64 = 0
    var count = 0
    var out: UnsafeMutablePointer<UInt8>

    init(out: UnsafeMutablePointer<UInt8>) { self.out = out }

    @inline(__always)
    mutating func put(_ value: UInt64, _ n: Int) {
        bits |= value &<< UInt64(count)
        count &+= n
        if count >= 32 {
            UnsafeMutableRawPointer(out).storeBytes(of: bits.littleEndian, as: UInt64.self)
            out += 4
            bits &>>= 32
            count &-= 32
        }
    }

    mutating func alignToByte() {
        while count > 0 {
            out.pointee = UInt8(truncatingIfNeeded: bits)
            out += 1
            bits &>>= 8
            count -= 8
        }
        count = 0
        bits = 0
    }

    /// Stored blocks for `count` bytes (65,535 at most each); `final` marks the last.
    mutating func writeStored(_ input: UnsafePointer<UInt8>, count: Int, final: Bool) {
        var input = input
        var left = count
        repeat {
            let piece = min(left, 65535)
            left -= piece
            put(final && left == 0 ? 1 : 0, 3)
            alignToByte()
            out[0] = UInt8(truncatingIfNeeded: piece)
            out[1] = UInt8(truncatingIfNeeded: piece >> 8)
            out[2] = ~UInt8(truncatingIfNeeded: piece)
            out[3] = ~UInt8(truncatingIfNeeded: piece >> 8)
            (out + 4).update(from: input, count: piece)
            out += 4 + piece
            input += piece
        } while left > 0
    }
}

/// Length-limited Huffman codes for a block.
private enum Huffman {
    static let literalLengthSymbols = 286
    static let endOfBlock = 256
    static let maximumCodeLength = 15

    /// The construction's working arrays for up to `symbols` symbols, in memory the caller owns.
    struct Scratch {
        let frequency: UnsafeMutablePointer<UInt32>
        let leaves: UnsafeMutablePointer<UInt64>
        let weight: UnsafeMutablePointer<UInt64>
        let parent: UnsafeMutablePointer<Int32>
        let depth: UnsafeMutablePointer<Int32>

        /// Leaves, weights, parents, depths and frequencies, in that order (widest first).
        static func bytes(symbols: Int) -> Int { symbols * 8 + 2 * symbols * (8 + 4 + 4) + symbols * 4 }

        init(_ raw: UnsafeMutableRawPointer, symbols: Int) {
            var memory = Carving(at: raw)
            leaves = memory.take(UInt64.self, symbols)
            weight = memory.take(UInt64.self, 2 * symbols)
            parent = memory.take(Int32.self, 2 * symbols)
            depth = memory.take(Int32.self, 2 * symbols)
            frequency = memory.take(UInt32.self, symbols)
        }
    }

    /// Code lengths of at most `limit` bits for the `n` symbols of `counts`, into `lengths`: the
    /// two-queue construction over the counts sorted (count, symbol), the counts halved (each
    /// kept at least 1) until the longest code fits. At least two symbols get a length, so the
    /// code is complete.
    static func codeLengths(
        _ counts: UnsafeMutablePointer<UInt32>,
        count n: Int,
        limit: Int,
        into lengths: UnsafeMutablePointer<UInt8>,
        scratch: Scratch
    ) {
        let frequency = scratch.frequency
        frequency.update(from: counts, count: n)
        var used = 0
        for s in 0..<n where frequency[s] != 0 { used += 1 }
        var i = 0
        while used < 2 && i < n {
            if frequency[i] == 0 {
                frequency[i] = 1
                used += 1
            }
            i += 1
        }
        let (leaves, weight, parent, depth) = (scratch.leaves, scratch.weight, scratch.parent, scratch.depth)
        while true {
            var m = 0
            for s in 0..<n {
                lengths[s] = 0
                // count << 16 | symbol: sorting them sorts by (count, symbol)
                if frequency[s] != 0 {
                    leaves[m] = UInt64(frequency[s]) << 16 | UInt64(s)
                    m += 1
                }
            }
            var sorted = UnsafeMutableBufferPointer(start: leaves, count: m)
            sorted.sort()
            for k in 0..<m { weight[k] = leaves[k] >> 16 }
            var nextLeaf = 0
            var nextNode = m
            var end = m
            for _ in 0..<max(0, m - 1) {
                var pick = (0, 0)
                for j in 0..<2 {
                    let chosen: Int
                    if nextLeaf < m && (nextNode >= end || weight[nextLeaf] <= weight[nextNode]) {
                        chosen = nextLeaf
                        nextLeaf += 1
                    } else {
                        chosen = nextNode
                        nextNode += 1
                    }
                    if j == 0 { pick.0 = chosen } else { pick.1 = chosen }
                }
                weight[end] = weight[pick.0] + weight[pick.1]
                parent[pick.0] = Int32(end)
                parent[pick.1] = Int32(end)
                end += 1
            }
            depth[end - 1] = 0
            var longest: Int32 = 0
            var k = end - 2
            while k >= 0 {
                depth[k] = depth[Int(parent[k])] + 1
                k -= 1
            }
            for k in 0..<m {
                lengths[Int(leaves[k] & 0xFFFF)] = UInt8(depth[k])
                longest = max(longest, depth[k])
            }
            if Int(longest) <= limit { return }
            for s in 0..<n where frequency[s] != 0 { frequency[s] = (frequency[s] + 1) >> 1 }
        }
    }

    /// Canonical codes for the `n` `lengths`, bit-reversed for writing least significant bit first.
    static func canonicalCodes(
        _ lengths: UnsafeMutablePointer<UInt8>,
        count n: Int,
        into codes: UnsafeMutablePointer<UInt16>
    ) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * (maximumCodeLength + 1)) { buffer in
            let perLength = buffer.baseAddress!
            let next = perLength + maximumCodeLength + 1
            perLength.initialize(repeating: 0, count: maximumCodeLength + 1)
            for s in 0..<n { perLength[Int(lengths[s])] += 1 }
            perLength[0] = 0
            var code: UInt32 = 0
            for bits in 1...maximumCodeLength {
                code = (code + perLength[bits - 1]) << 1
                next[bits] = code
            }
            for s in 0..<n {
                let length = Int(lengths[s])
                guard length > 0 else {
                    codes[s] = 0
                    continue
                }
                let value = next[length]
                next[length] += 1
                // The code's `length` bits reversed: all 32 reversed, then shifted down.
                codes[s] = UInt16(truncatingIfNeeded: reversed32(value) >> UInt32(32 - length))
            }
        }
    }

    /// `value`'s 32 bits in the opposite order.
    @inline(__always)
    static func reversed32(_ value: UInt32) -> UInt32 {
        var v = value
        v = (v >> 1) & 0x5555_5555 | (v & 0x5555_5555) << 1
        v = (v >> 2) & 0x3333_3333 | (v & 0x3333_3333) << 2
        v = (v >> 4) & 0x0F0F_0F0F | (v & 0x0F0F_0F0F) << 4
        return v.byteSwapped
    }
}
