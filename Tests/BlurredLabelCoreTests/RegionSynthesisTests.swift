import Testing

@testable import BlurredLabelCore

/// The secure fill's rule written the direct way (each pixel scans its row and column for the
/// nearest pixels outside the secrets): slow, and obviously the rule. The linear version must
/// give the same bytes.
private func directFill(_ image: Image, secrets: [Redaction.Rect]) -> Image {
    let w = image.width
    let h = image.height
    func secret(_ x: Int, _ y: Int) -> Bool { secrets.contains { $0.contains(x, y) } }
    var out = image
    for y in 0..<h {
        for x in 0..<w where secret(x, y) {
            var total = [Double](repeating: 0, count: 4)
            var weight = 0.0
            func take(_ px: Int, _ py: Int, _ distance: Int) {
                let k = 1.0 / Double(distance)
                for c in 0..<4 { total[c] += k * Double(image.pixels[(py * w + px) * 4 + c]) }
                weight += k
            }
            var left = x - 1
            while left >= 0 && secret(left, y) { left -= 1 }
            var right = x + 1
            while right < w && secret(right, y) { right += 1 }
            var up = y - 1
            while up >= 0 && secret(x, up) { up -= 1 }
            var down = y + 1
            while down < h && secret(x, down) { down += 1 }
            if left >= 0 { take(left, y, x - left) }
            if right < w { take(right, y, right - x) }
            if up >= 0 { take(x, up, y - up) }
            if down < h { take(x, down, down - y) }
            let i = (y * w + x) * 4
            for c in 0..<4 {
                out[byte: i + c] = weight == 0 ? (c == 3 ? 255 : 128) : UInt8(min(255, (total[c] / weight).rounded()))
            }
            for c in 0..<3 { out[byte: i + c] = min(out.pixels[i + c], out.pixels[i + 3]) }
        }
    }
    return out
}

@Suite("Secure fill")
struct RegionSynthesisTests {
    @Test("the linear fill gives the direct rule's bytes", arguments: 1...12 as ClosedRange<UInt64>)
    func linearEqualsDirect(seed: UInt64) throws {
        var random = TestRandom(state: seed)
        let image = try screenshot(width: 90, height: 70, seed: seed)
        var secrets: [Redaction.Rect] = []
        for _ in 0..<(1 + Int(random.next()) % 5) {
            // Overlapping, touching the edges, sometimes the whole row or column.
            let x = Int(random.next()) % 90
            let y = Int(random.next()) % 70
            let r = Redaction.Rect(x: x, y: y, width: 1 + Int(random.next()) % 60, height: 1 + Int(random.next()) % 50)
            secrets.append(r.clipped(toWidth: 90, height: 70)!)
        }
        if seed == 12 { secrets.append(.init(x: 0, y: 0, width: 90, height: 70)) }  // nothing outside: grey
        #expect(RegionSynthesis.replacingSecrets(in: image, secrets: secrets) == directFill(image, secrets: secrets))
    }
}
