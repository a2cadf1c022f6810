@testable import BlurLabelCLI

/// libFuzzer target: one manifest line, as batch reads it — the quick duplicate scan, the full
/// parse, and the typed options turned into a label style (everything but opening a font file,
/// which would let the fuzzer read arbitrary paths such as /dev/zero).
///
/// Besides "never crashes", it checks one property: when the quick scan names an output and the
/// full parse accepts the line, both name the same output (batch's duplicate check relies on it).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifestLine(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let quick = ManifestLine.quickOutput(bytes)
    guard let line = try? ManifestLine(bytes: bytes) else { return 0 }
    if let quick, quick != line.output {
        fatalError("quickOutput '\(quick)' differs from the parsed output '\(line.output)'")
    }
    if !LabelOptions.font.isGiven(in: line.options) {
        _ = try? line.style()
    }
    return 0
}
