@testable import BlurLabelCLI

/// libFuzzer target: parsing one manifest line (whatever entry point batch uses for a line).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifestLine(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    _ = try? ManifestLine(bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
