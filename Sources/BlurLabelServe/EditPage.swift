/// `blurlabel edit`'s page, `Resources/edit.html`: plain HTML, CSS and JavaScript, no framework,
/// nothing fetched but this server's own routes (the token is the page's own path). SwiftPM embeds
/// the file in the binary (`.embedInCode`), so the static build needs no file beside it.
/// Rectangles are kept in the picture's pixels; the picture is scaled to fit and every pointer
/// position is mapped back through the shown picture's box. Previews are rendered by the server
/// (the engine), one request at a time: changes made while one is on its way are sent together
/// when it returns. The modes and the σ and block ranges it offers are the server's, read from
/// its `state` route (`EditService.stateJSON`), never restated in the page.
enum EditPage {
    static let html: [UInt8] = PackageResources.edit_html
}
