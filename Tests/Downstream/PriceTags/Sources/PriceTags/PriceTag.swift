import BlurredLabelKit

/// A blurred price tag, the same bytes on every machine (embedded fonts only).
public func priceTag(_ price: String) throws -> Image {
    var style = LabelStyle()
    style.typography.systemFallback = .off
    let label = BlurredLabel(text: price, style: style)
    try label.blur()
    return try label.image
}
