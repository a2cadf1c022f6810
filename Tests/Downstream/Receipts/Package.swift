// swift-tools-version:6.0
// A second package beside PriceTags that depends on blurlabel as a user's does, by path, to check GoldenImage and
// BlurredLabelKit from outside (scripts/checks/test-downstream builds and runs it; CI runs that).
import Foundation
import PackageDescription

// A user writes `.package(path: "../blurlabel")` and `package: "blurlabel"`: a path dependency's
// package name is its folder's name. This checkout's folder may be named otherwise, so it is read.
let checkout = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../../..").standardized

let package = Package(
    name: "Receipts",
    dependencies: [.package(path: checkout.path)],
    targets: [
        .target(
            name: "Receipts",
            dependencies: [.product(name: "BlurredLabelKit", package: checkout.lastPathComponent)]
        ),
        .testTarget(
            name: "ReceiptsTests",
            dependencies: ["Receipts", .product(name: "GoldenImage", package: checkout.lastPathComponent)]
        ),
    ]
)
