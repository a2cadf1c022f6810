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
        var counts = [UInt32](repeating: 0, count: Huffman.literalLengthSymbols)
        let tokenCount = counts.withUnsafeMutableBufferPointer {
            Self.tokenize(input, count: count, previous: previous, tokens: tokens, counts: $0.baseAddress!)
        }
        writeBlock(tokens: tokens, tokenCount: tokenCount, counts: &counts, input: input, count: count, final: final)
        if count > 0 { previous = input[count - 1] }
    }

    /// The bytes written since `init` (the last bits padded to a byte).
    package mutating func finish() -> Int {
        writer.alignToByte()
        return writer.out - start
    }

    // MARK: - tokens

    /// A token is a literal byte (below 256) or a run of the byte before: 0x8000 | length (3–258).
    private static let runFlag: UInt16 = 0x8000

    /// The tokens of the `count` bytes at `input`, the byte before them `previous`; counts the
    /// symbols they use.
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
        while i < count {
            let before = i > 0 ? input[i &- 1] : first
            if input[i] == before {
                let limit = min(count &- i, 258)
                var length = 0
                let pattern = 0x0101_0101_0101_0101 &* UInt64(before)
                while true {
                    if length &+ 8 <= limit {
                        let word =
                            UInt64(littleEndian: UnsafeRawPointer(input + i + length).loadUnaligned(as: UInt64.self))
                            ^ pattern
                        if word != 0 {
                            length &+= word.trailingZeroBitCount &>> 3
                            break
                        }
                        length &+= 8
                    } else {
                        while length < limit && input[i &+ length] == before { length &+= 1 }
                        break
                    }
                }
                if length >= 3 {
                    tokens[n] = runFlag | UInt16(length)
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

    // MARK: - blocks

    /// The order in which a block's header gives the code-length code's lengths (RFC 1951 3.2.7).
    private static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// One block of `tokens` (made from `count` bytes at `input`): dynamic Huffman, or stored if
    /// that is smaller.
    private mutating func writeBlock(
        tokens: UnsafeMutablePointer<UInt16>,
        tokenCount: Int,
        counts: inout [UInt32],
        input: UnsafePointer<UInt8>,
        count: Int,
        final: Bool
    ) {
        counts[Huffman.endOfBlock] = 1
        var lengths = Huffman.codeLengths(counts, limit: Huffman.maximumCodeLength)
        let codes = Huffman.canonicalCodes(lengths)
        var literalCount = Huffman.literalLengthSymbols
        while literalCount > 257 && lengths[literalCount - 1] == 0 { literalCount -= 1 }
        // Two distance codes of one bit each (a complete code); runs use code 0, distance 1.
        lengths.removeSubrange(literalCount...)
        lengths += [1, 1]
        let total = literalCount + 2

        // The code lengths, run-length coded (16: repeat 3-6, 17: 3-10 zeros, 18: 11-138 zeros).
        var symbols: [UInt8] = []
        var extras: [UInt8] = []
        symbols.reserveCapacity(total)
        extras.reserveCapacity(total)
        var i = 0
        while i < total {
            let value = lengths[i]
            var run = 1
            while i + run < total && lengths[i + run] == value { run += 1 }
            i += run
            if value == 0 {
                while run >= 11 {
                    let piece = min(run, 138)
                    symbols.append(18)
                    extras.append(UInt8(piece - 11))
                    run -= piece
                }
                if run >= 3 {
                    symbols.append(17)
                    extras.append(UInt8(run - 3))
                    run = 0
                }
            } else {
                symbols.append(value)
                extras.append(0)
                run -= 1
                while run >= 3 {
                    let piece = min(run, 6)
                    symbols.append(16)
                    extras.append(UInt8(piece - 3))
                    run -= piece
                }
            }
            while run > 0 {
                symbols.append(value)
                extras.append(0)
                run -= 1
            }
        }
        var codeLengthCounts = [UInt32](repeating: 0, count: 19)
        for symbol in symbols { codeLengthCounts[Int(symbol)] += 1 }
        let codeLengthLengths = Huffman.codeLengths(codeLengthCounts, limit: 7)
        let codeLengthCodes = Huffman.canonicalCodes(codeLengthLengths)
        var codeLengthCount = 19
        while codeLengthCount > 4 && codeLengthLengths[Self.codeLengthOrder[codeLengthCount - 1]] == 0 {
            codeLengthCount -= 1
        }

        // The block's size in bits, to choose between it and stored bytes.
        var size = UInt64(3 + 5 + 5 + 4 + 3 * codeLengthCount)
        for symbol in symbols {
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
        for (k, symbol) in symbols.enumerated() {
            let s = Int(symbol)
            writer.put(UInt64(codeLengthCodes[s]), Int(codeLengthLengths[s]))
            let extra = Self.repeatExtraBits(symbol)
            if extra > 0 { writer.put(UInt64(extras[k]), Int(extra)) }
        }
        writeTokens(tokens, count: tokenCount, codes: codes, lengths: lengths)
        writer.put(UInt64(codes[Huffman.endOfBlock]), Int(lengths[Huffman.endOfBlock]))
    }

    /// The block's tokens in its codes: the hot loop, over unsafe pointers and a local writer.
    private mutating func writeTokens(
        _ tokens: UnsafeMutablePointer<UInt16>,
        count: Int,
        codes: [UInt16],
        lengths: [UInt8]
    ) {
        var w = writer
        codes.withUnsafeBufferPointer { codeBuffer in
            lengths.withUnsafeBufferPointer { lengthBuffer in
                let code = codeBuffer.baseAddress!
                let length = lengthBuffer.baseAddress!
                for k in 0..<count {
                    let token = tokens[k]
                    if token < 256 {
                        w.put(UInt64(code[Int(token)]), Int(length[Int(token)]))
                    } else {
                        let run = Int(token & ~Self.runFlag)
                        let lengthCode = LengthCode(run)
                        let symbol = 257 &+ lengthCode.index
                        let bits = Int(length[symbol])
                        // Code, extra bits and the distance code's one 0 bit: at most 15 + 5 + 1 bits.
                        w.put(
                            UInt64(code[symbol]) | UInt64(lengthCode.extra) &<< UInt64(bits),
                            bits &+ lengthCode.extraBits &+ 1
                        )
                    }
                }
            }
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

    /// Code lengths of at most `limit` bits for the symbols of `counts`: the two-queue
    /// construction over the counts sorted (count, symbol), the counts halved (each kept at least
    /// 1) until the longest code fits. At least two symbols get a length, so the code is complete.
    static func codeLengths(_ counts: [UInt32], limit: Int) -> [UInt8] {
        let n = counts.count
        var frequency = counts
        var used = frequency.reduce(0) { $0 + ($1 != 0 ? 1 : 0) }
        var i = 0
        while used < 2 && i < n {
            if frequency[i] == 0 {
                frequency[i] = 1
                used += 1
            }
            i += 1
        }
        var lengths = [UInt8](repeating: 0, count: n)
        var weight = [UInt64](repeating: 0, count: 2 * n)
        var parent = [Int](repeating: 0, count: 2 * n)
        var depth = [Int](repeating: 0, count: 2 * n)
        var leaves: [UInt64] = []  // count << 16 | symbol: sorting them sorts by (count, symbol)
        leaves.reserveCapacity(n)
        while true {
            leaves.removeAll(keepingCapacity: true)
            for s in 0..<n {
                lengths[s] = 0
                if frequency[s] != 0 { leaves.append(UInt64(frequency[s]) << 16 | UInt64(s)) }
            }
            leaves.sort()
            let m = leaves.count
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
                parent[pick.0] = end
                parent[pick.1] = end
                end += 1
            }
            depth[end - 1] = 0
            var longest = 0
            var k = end - 2
            while k >= 0 {
                depth[k] = depth[parent[k]] + 1
                k -= 1
            }
            for k in 0..<m {
                lengths[Int(leaves[k] & 0xFFFF)] = UInt8(depth[k])
                longest = max(longest, depth[k])
            }
            if longest <= limit { return lengths }
            for s in 0..<n where frequency[s] != 0 { frequency[s] = (frequency[s] + 1) >> 1 }
        }
    }

    /// Canonical codes for `lengths`, bit-reversed for writing least significant bit first.
    static func canonicalCodes(_ lengths: [UInt8]) -> [UInt16] {
        var perLength = [Int](repeating: 0, count: maximumCodeLength + 1)
        var next = [Int](repeating: 0, count: maximumCodeLength + 1)
        for length in lengths { perLength[Int(length)] += 1 }
        perLength[0] = 0
        var code = 0
        for bits in 1...maximumCodeLength {
            code = (code + perLength[bits - 1]) << 1
            next[bits] = code
        }
        var codes = [UInt16](repeating: 0, count: lengths.count)
        for (s, length) in lengths.enumerated() where length > 0 {
            var value = next[Int(length)]
            next[Int(length)] += 1
            var reversed = 0
            for _ in 0..<Int(length) {
                reversed = (reversed << 1) | (value & 1)
                value >>= 1
            }
            codes[s] = UInt16(reversed)
        }
        return codes
    }
}
