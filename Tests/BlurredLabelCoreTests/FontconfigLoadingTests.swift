import Testing

@testable import BlurLabelCodecs
@testable import BlurLabelPixels
@testable import BlurLabelSystem
@testable import BlurLabelText
@testable import BlurredLabelCore

/// fontconfig is opened at run time (Text/Fontconfig.swift): each way that can fail says why,
/// and the real library loads with every function.
@Suite("Loading fontconfig")
struct FontconfigLoadingTests {
    @Test func installedLibraryLoads() throws {
        let library = try Fontconfig.load(from: "libfontconfig.so.1").get()
        #expect(library.initialize() != 0)
        guard case .success = Fontconfig.shared else {
            Issue.record("the shared library did not load")
            return
        }
    }

    @Test func missingLibrarySaysWhy() {
        guard case let .failure(failure) = Fontconfig.load(from: "libblurlabel-no-such-library.so.1") else {
            Issue.record("a missing library loaded")
            return
        }
        #expect(failure.description.contains("libblurlabel-no-such-library.so.1"), "\(failure)")
    }

    @Test func libraryWithoutTheFunctionsIsRefused() {
        // zlib is loaded anyway (libpng needs it) and has none of fontconfig's functions.
        guard case let .failure(failure) = Fontconfig.load(from: "libz.so.1") else {
            Issue.record("zlib passed for fontconfig")
            return
        }
        #expect(failure.description == "libz.so.1 has no FcInit", "\(failure)")
    }

    @Test func familyLookupErrorNamesTheReason() {
        let error = FontError.fontconfigUnavailable(
            "Inter",
            reason: "libfontconfig.so.1: cannot open shared object file"
        )
        #expect(
            error.description == "cannot look up font family 'Inter': fontconfig is not available "
                + "(libfontconfig.so.1: cannot open shared object file); give a font file path instead"
        )
    }
}
