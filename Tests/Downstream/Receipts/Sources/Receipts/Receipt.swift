import BlurredLabelKit

/// A receipt line, sharp: a different picture under the same golden name as PriceTags' tag.
public func receiptLine(_ text: String) throws -> Image {
    var style = LabelStyle()
    style.typography.systemFallback = .off
    style.typography.size = 20
    return try BlurredLabel(text: text, style: style).image
}
