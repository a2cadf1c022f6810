import BlurredLabelCore
import Foundation
import Testing

@testable import BlurLabelCLI

/// `--secure` on the command line, in manifests and for animations: a format is required, a text
/// longer than it is refused without being laid out, and the blur is at least the legibility floor
/// (`--radius unreadable`, secure mode's default).
@Suite("secure mode's format and floor from the command line")
struct SecureFloorCommandTests {
    let floor = BlurRadius.unreadable(forSize: 32).sigma

    @Test func aBlurUnderTheFloorIsRefusedNamingIt() throws {
        let folder = try temporaryFolder()
        let result = run([
            "render", "80.18 €", "--secure", "--format", "##.## €", "--radius", "2.5", "--size", "32", "-o",
            folder + "/a.png",
        ])
        #expect(result.status == 2 && result.err.contains("at least \(formatNumber(floor))"), "\(result.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/a.png"))
        let animate = run([
            "animate", "80.18 €", "--secure", "--format", "##.## €", "--max-radius", "3", "-o", folder + "/b.png",
        ])
        #expect(animate.status == 2 && animate.err.contains("legibility floor"), "\(animate.err)")
    }

    @Test func secureModeDefaultsToTheFloorAndUnreadableIsTheFloorForPlainLabelsToo() throws {
        let folder = try temporaryFolder()
        let secure = ["render", "80.18 €", "--secure", "--format", "##.## €", "--seed", "3"]
        #expect(run(secure + ["-o", folder + "/default.png"]).status == 0)
        #expect(run(secure + ["--radius", formatNumber(floor), "-o", folder + "/floor.png"]).status == 0)
        #expect(try FileIO.read(folder + "/default.png") == FileIO.read(folder + "/floor.png"))
        for (size, name) in [("32", "a"), ("12", "b")] {
            #expect(
                run(["render", "80.18 €", "--size", size, "--radius", "unreadable", "-o", "\(folder)/u\(name).png"])
                    .status == 0
            )
            let sigma = formatNumber(BlurRadius.unreadable(forSize: Double(size)!).sigma)
            #expect(
                run(["render", "80.18 €", "--size", size, "--radius", sigma, "-o", "\(folder)/s\(name).png"]).status
                    == 0
            )
            #expect(try FileIO.read("\(folder)/u\(name).png") == FileIO.read("\(folder)/s\(name).png"))
        }
        #expect(try FileIO.read(folder + "/ua.png") != FileIO.read(folder + "/ub.png"))
    }

    /// The least of `runs` runs' wall-clock times of `arguments`, in seconds.
    func leastTime(_ arguments: [String], runs: Int = 10) -> (Double, (status: Int32, out: String, err: String)) {
        var least = Double.infinity
        var last = run(arguments)
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            last = run(arguments)
            least = min(least, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return (least, last)
    }

    @Test func aLongSecretIsRefusedInTheTimeOfAShortOneWithNoSizeSaid() throws {
        let folder = try temporaryFolder()
        let options = ["--secure", "--format", "#####", "-o", folder + "/never.png"]
        let (shortTime, short) = leastTime(["render", "123456"] + options)
        let (longTime, long) = leastTime(["render", String(repeating: "7", count: 60_000)] + options)
        for result in [short, long] {
            #expect(result.status == 2 && result.err.contains("longer than its secure format"), "\(result.err)")
            #expect(result.err.filter(\.isNumber).isEmpty, "\(result.err)")
        }
        #expect(longTime < shortTime * 3 + 0.002, "60,000 characters: \(longTime) s, 6: \(shortTime) s")
        #expect(!FileManager.default.fileExists(atPath: folder + "/never.png"))
    }

    @Test func manifestsAndAnimationsRefuseASecretLongerThanTheFormat() throws {
        let folder = try temporaryFolder()
        let manifest = try writeManifest(
            [
                ###"{"text":"100.00 €","output":"long.png","secure":true,"format":"##.## €"}"###,
                ###"{"text":"10.00 €","output":"fits.png","secure":true,"format":"##.## €"}"###,
            ],
            in: folder
        )
        let batch = run(["batch", manifest, "--out", folder + "/out"])
        #expect(batch.status != 0 && batch.err.contains("longer than its secure format"), "\(batch.err)")
        #expect(!batch.err.contains("100"), "\(batch.err)")
        #expect(FileManager.default.fileExists(atPath: folder + "/out/fits.png"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/out/long.png"))
        let animate = run(["animate", "100.00 €", "--secure", "--format", "##.## €", "-o", folder + "/a.png"])
        #expect(animate.status == 2 && animate.err.contains("longer than its secure format"), "\(animate.err)")
    }
}
