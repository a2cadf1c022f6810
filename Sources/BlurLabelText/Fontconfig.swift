import BlurLabelSystem
import CFontconfig

/// fontconfig's functions, found in `libfontconfig.so.1` the first time a family name or system
/// fallback needs them (`dlopen`). The executable does not link fontconfig: a label the embedded
/// fonts cover never maps or relocates it or expat behind it (at every start that was 115 K
/// instructions and about 30 page faults, `Benchmarks/run-oneshot`), and a machine without
/// fontconfig still renders with the embedded fonts. The types and constants come from
/// fontconfig's header (`CFontconfig`).
struct Fontconfig: Sendable {
    typealias Pattern = OpaquePointer
    typealias CharSet = OpaquePointer

    let initialize: @Sendable @convention(c) () -> FcBool
    let nameParse: @Sendable @convention(c) (UnsafePointer<FcChar8>?) -> Pattern?
    let patternDestroy: @Sendable @convention(c) (Pattern?) -> Void
    let configSubstitute: @Sendable @convention(c) (OpaquePointer?, Pattern?, FcMatchKind) -> FcBool
    let defaultSubstitute: @Sendable @convention(c) (Pattern?) -> Void
    let fontMatch: @Sendable @convention(c) (OpaquePointer?, Pattern?, UnsafeMutablePointer<FcResult>?) -> Pattern?
    let fontSort:
        @Sendable @convention(c) (
            OpaquePointer?, Pattern?, FcBool, UnsafeMutablePointer<CharSet?>?,
            UnsafeMutablePointer<FcResult>?
        ) -> UnsafeMutablePointer<FcFontSet>?
    let fontSetDestroy: @Sendable @convention(c) (UnsafeMutablePointer<FcFontSet>?) -> Void
    let patternGetString:
        @Sendable @convention(c) (
            Pattern?, UnsafePointer<CChar>?, Int32,
            UnsafeMutablePointer<UnsafeMutablePointer<FcChar8>?>?
        ) -> FcResult
    let patternGetInteger:
        @Sendable @convention(c) (Pattern?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<Int32>?) -> FcResult
    let patternGetBool:
        @Sendable @convention(c) (Pattern?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<FcBool>?) -> FcResult
    let patternGetCharSet:
        @Sendable @convention(c) (Pattern?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<CharSet?>?) -> FcResult
    let charSetCopy: @Sendable @convention(c) (CharSet?) -> CharSet?
    let charSetDestroy: @Sendable @convention(c) (CharSet?) -> Void
    let charSetHasChar: @Sendable @convention(c) (CharSet?, FcChar32) -> FcBool

    /// The library, loaded and initialised (`FcInit`) on first use, or why it could not be: Swift
    /// runs a global's initializer once, safely, so every thread sees the same answer.
    static let shared: Result<Fontconfig, LoadFailure> = load(from: "libfontconfig.so.1")

    /// Why fontconfig could not be used (the loader's own message).
    struct LoadFailure: Error, Sendable, CustomStringConvertible {
        let description: String
    }

    /// Opens the library `name` and finds fontconfig's functions in it (tests name other files to
    /// see each failure).
    static func load(from name: String) -> Result<Fontconfig, LoadFailure> {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(
                LoadFailure(description: dlerror().map { String(cString: $0) } ?? "\(name) could not be loaded")
            )
        }
        // The handle stays open for the life of the process: the functions are used until exit.
        func symbol<F>(_ symbol: String) throws(LoadFailure) -> F {
            guard let address = dlsym(handle, symbol) else {
                throw LoadFailure(description: "\(name) has no \(symbol)")
            }
            return unsafeBitCast(address, to: F.self)
        }
        do throws(LoadFailure) {
            // Each function's type is the field's, written from fontconfig.h.
            let library = try Fontconfig(
                initialize: symbol("FcInit"),
                nameParse: symbol("FcNameParse"),
                patternDestroy: symbol("FcPatternDestroy"),
                configSubstitute: symbol("FcConfigSubstitute"),
                defaultSubstitute: symbol("FcDefaultSubstitute"),
                fontMatch: symbol("FcFontMatch"),
                fontSort: symbol("FcFontSort"),
                fontSetDestroy: symbol("FcFontSetDestroy"),
                patternGetString: symbol("FcPatternGetString"),
                patternGetInteger: symbol("FcPatternGetInteger"),
                patternGetBool: symbol("FcPatternGetBool"),
                patternGetCharSet: symbol("FcPatternGetCharSet"),
                charSetCopy: symbol("FcCharSetCopy"),
                charSetDestroy: symbol("FcCharSetDestroy"),
                charSetHasChar: symbol("FcCharSetHasChar")
            )
            guard library.initialize() != 0 else {
                throw LoadFailure(description: "FcInit failed (fontconfig's configuration)")
            }
            return .success(library)
        } catch {
            dlclose(handle)
            return .failure(error)
        }
    }
}
